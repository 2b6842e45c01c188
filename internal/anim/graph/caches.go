package graph

// cachePool lends clip players the sampling state they need while they are
// evaluated (SampleSoAJob.Cache and Cursors, a pair that travels together).
// A frame evaluates few of a controller's players: the one or two states
// each layer blends, and the clips of their trees. A cache another clip
// filled is refilled by the clip it is lent to (its keys found again from
// the time, as on entering a state), so a controller holds about as many as
// it evaluates in a frame, not one per player: a crowd member of the clip
// browser three, not one per clip. A controller with no more players than
// that has no pool: each player keeps the cache it was built with, next to
// it in memory. Lending allocates only when a frame evaluates more players
// than NewController counted on.
type cachePool struct {
	// frame counts Evaluate calls; a slot used in this frame is not lent
	// to another player in it.
	frame uint32
	// Slot i: its cache and cursors, the player holding them, and the
	// frame it was last used in.
	caches  [][]float32
	cursors [][]int32
	owner   []*clipNode
	used    []uint32
	// cacheLen and cursorLen are the longest any player's clip needs.
	cacheLen, cursorLen int
}

// newCachePool sizes a pool for players, slots of them lent at once, and
// takes back the caches the players were built with.
func newCachePool(players []*clipNode, slots int) *cachePool {
	p := &cachePool{}
	for _, n := range players {
		p.cacheLen = max(p.cacheLen, n.job.Clip.CacheLen())
		p.cursorLen = max(p.cursorLen, n.job.Clip.NumCursors())
		n.job.Cache, n.job.Cursors = nil, nil
	}
	for range min(slots, len(players)) {
		p.grow()
	}
	return p
}

func (p *cachePool) grow() {
	p.caches = append(p.caches, make([]float32, p.cacheLen))
	p.cursors = append(p.cursors, make([]int32, p.cursorLen))
	p.owner = append(p.owner, nil)
	p.used = append(p.used, p.frame-1)
}

// lend gives n the cache and cursors it is sampled with this frame: the
// slot it holds, if no one took it, else the slot least recently used
// outside this frame.
func (p *cachePool) lend(n *clipNode) {
	if s := n.slot; s >= 0 && p.owner[s] == n {
		p.used[s] = p.frame
		return
	}
	s := -1
	for i, u := range p.used {
		if u != p.frame && (s < 0 || p.frame-u > p.frame-p.used[s]) {
			s = i
		}
	}
	if s < 0 {
		p.grow()
		s = len(p.used) - 1
	}
	if old := p.owner[s]; old != nil {
		old.slot, old.job.Cache, old.job.Cursors = -1, nil, nil
	}
	p.owner[s], p.used[s], n.slot = n, p.frame, s
	n.job.Cache = p.caches[s][:n.job.Clip.CacheLen()]
	n.job.Cursors = p.cursors[s][:n.job.Clip.NumCursors()]
}
