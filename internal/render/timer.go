package render

import "github.com/go-gl/gl/v4.1-core/gl"

// gpuTimer times Draw on the GPU with GL_TIME_ELAPSED queries, two in
// turn so that reading one frame's result never waits for the frame being
// drawn.
type gpuTimer struct {
	queries [2]uint32
	frame   int     // Draws begun
	pending [2]bool // query k holds a result not read yet
	last    float64 // the newest result read, in milliseconds
	have    bool
	// ns and ready receive GL's answers: a pointer to a local handed to
	// cgo would move it to the heap every frame.
	ns    uint64
	ready int32
}

func (r *Renderer) beginTimer() {
	t := &r.timer
	if t.queries[0] == 0 {
		gl.GenQueries(2, &t.queries[0])
	}
	k := t.frame % 2
	if t.pending[k] {
		t.read(k, true)
	}
	gl.BeginQuery(gl.TIME_ELAPSED, t.queries[k])
}

func (r *Renderer) endTimer() {
	t := &r.timer
	gl.EndQuery(gl.TIME_ELAPSED)
	t.pending[t.frame%2] = true
	t.frame++
}

// read takes query k's result, waiting for it when wait says so.
func (t *gpuTimer) read(k int, wait bool) {
	if !wait {
		gl.GetQueryObjectiv(t.queries[k], gl.QUERY_RESULT_AVAILABLE, &t.ready)
		if t.ready == 0 {
			return
		}
	}
	gl.GetQueryObjectui64v(t.queries[k], gl.QUERY_RESULT, &t.ns)
	t.last, t.have, t.pending[k] = float64(t.ns)/1e6, true, false
}

// GPUMillis is how long the GPU took for the newest Draw whose result is
// in (after Finish, the last one), in milliseconds; ok is false before
// any.
func (r *Renderer) GPUMillis() (ms float64, ok bool) {
	t := &r.timer
	for k := range 2 {
		if t.pending[(t.frame+k)%2] {
			t.read((t.frame+k)%2, false)
		}
	}
	return t.last, t.have
}

func (t *gpuTimer) destroy() {
	if t.queries[0] != 0 {
		gl.DeleteQueries(2, &t.queries[0])
		t.queries = [2]uint32{}
	}
}
