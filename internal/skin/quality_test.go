package skin

import "testing"

// TestPlanQuality logs the planner's figures (go test -v -run Quality):
// partitions beside ⌈J/k⌉ (a bound no mesh whose triangles span several
// joints reaches) and beside first fit, and duplicated vertices. It checks
// nothing that TestPlanPartitionsSplit does not.
func TestPlanQuality(t *testing.T) {
	if testing.Short() {
		t.Skip("figures only")
	}
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
			t.Logf("%-12s k=%-3d tris=%-6d verts=%-6d partitions=%-4d (⌈J/k⌉ %d, first fit %d) duplicated=%-5d (%.1f%%; first fit %d)",
				mm.name, k, len(mm.m.indices)/3, nv, len(plan.Partitions), (mm.m.numJ+k-1)/k, ffParts,
				plan.Duplicated, 100*float64(plan.Duplicated)/float64(nv), ffDup)
		}
	}
}
