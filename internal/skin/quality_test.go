package skin

import "testing"

// TestPlanQuality logs the planner's figures (go test -v -run Quality):
// partitions against the lower bound ⌈J/k⌉ and duplicated vertices.
func TestPlanQuality(t *testing.T) {
	meshes := []struct {
		name string
		m    *mesh
	}{
		{"chain40", chainMesh(40, 4)},
		{"grid300", gridMesh(1, 60, 300)},
		{"grid300-50k", gridMesh(2, 159, 300)},
		{"noise300", noiseMesh(3, 400, 600, 300)},
	}
	for _, mm := range meshes {
		for _, k := range []int{12, 16, 32, 64} {
			plan, err := PlanPartitions(mm.m.indices, mm.m.joints, mm.m.weights, k)
			if err != nil {
				t.Fatal(err)
			}
			nv := len(mm.m.joints) / 4
			t.Logf("%-12s k=%-3d tris=%-6d verts=%-6d partitions=%-4d (≥%d) duplicated=%-5d (%.1f%%)",
				mm.name, k, len(mm.m.indices)/3, nv, len(plan.Partitions), (mm.m.numJ+k-1)/k,
				plan.Duplicated, 100*float64(plan.Duplicated)/float64(nv))
		}
	}
}
