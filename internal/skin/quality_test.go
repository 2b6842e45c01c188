package skin

import "testing"

// TestPlanQuality holds the planner to what it is for, beside first fit
// (greedy, in triangle order: the obvious baseline): never more duplicated
// vertices than first fit, partitions within 5 % of first fit on random
// triangles and at most a third of them on a grid, the chain split at most
// one above ⌈J/k⌉, and never below that bound. go test -v prints the figures.
func TestPlanQuality(t *testing.T) {
	meshes := []struct {
		name string
		m    *mesh
	}{
		{"chain40", chainMesh(40, 4)},
		{"grid300", gridMesh(1, 60, 300)},
		{"noise300", noiseMesh(3, 400, 600, 300)},
	}
	for _, mm := range meshes {
		for _, k := range []int{12, 16, 32, 64} {
			plan, err := PlanPartitions(mm.m.indices, mm.m.joints, mm.m.weights, k)
			if err != nil {
				t.Fatal(err)
			}
			nv := len(mm.m.joints) / 4
			ffParts, ffDup := firstFit(mm.m, k)
			parts, bound := len(plan.Partitions), (mm.m.numJ+k-1)/k
			switch {
			case parts < bound:
				t.Errorf("%s k=%d: %d partitions, below the bound ⌈J/k⌉ = %d: joints were lost", mm.name, k, parts, bound)
			case plan.Duplicated > ffDup:
				t.Errorf("%s k=%d: %d duplicated vertices, first fit needs %d", mm.name, k, plan.Duplicated, ffDup)
			case 20*parts > 21*ffParts:
				t.Errorf("%s k=%d: %d partitions, over 5 %% more than first fit's %d", mm.name, k, parts, ffParts)
			case mm.name == "grid300" && 3*parts > ffParts:
				t.Errorf("%s k=%d: %d partitions, over a third of first fit's %d", mm.name, k, parts, ffParts)
			case mm.name == "chain40" && parts > bound+1:
				t.Errorf("%s k=%d: %d partitions for a chain, over ⌈J/k⌉+1 = %d", mm.name, k, parts, bound+1)
			}
			t.Logf("%-12s k=%-3d tris=%-6d verts=%-6d partitions=%-4d (⌈J/k⌉ %d, first fit %d) duplicated=%-5d (%.1f%%; first fit %d)",
				mm.name, k, len(mm.m.indices)/3, nv, len(plan.Partitions), (mm.m.numJ+k-1)/k, ffParts,
				plan.Duplicated, 100*float64(plan.Duplicated)/float64(nv), ffDup)
		}
	}
}
