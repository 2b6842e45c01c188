package graph

// Backward reports whether the time of the clip the base layer shows
// (Timeline) runs backwards as the clock plays, paused or not: a negative
// rate or speed, or a ping-pong clip on its way back.
func (c *Controller) Backward() bool {
	if len(c.machines) == 0 {
		return false
	}
	m := &c.machines[0]
	tree := m.states[m.cur].tree
	if tree == nil {
		return false
	}
	n := tree.timeline()
	back := (n.authored < 0) != (c.speed < 0)
	return back != n.clock.Returning()
}
