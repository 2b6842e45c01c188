package main

import (
	"fmt"
	"math"
	"os"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltfload"
)

func main() {
	tol := 0.0001
	gm, cnt := 0.0, 0
	for _, f := range os.Args[1:] {
		m, err := gltfload.Load(f)
		if err != nil {
			fmt.Println(f, err)
			continue
		}
		for i := range m.Clips {
			_, rep, err := anim.CompressClip(&m.Clips[i], &m.Skeleton, anim.CompressOptions{Tolerance: tol})
			if err != nil {
				fmt.Println(err)
				continue
			}
			fmt.Printf("%-40s %-12s raw %7d bytes %6d ratio %6.2f max %.5f cm p99 %.5f cm %v\n", m.Name, rep.Clip, rep.RawBytes, rep.Bytes, rep.Ratio(), rep.MaxError*100, rep.P99Error*100, rep.Elapsed)
			if len(m.Skins) > 0 {
				gm += math.Log(rep.Ratio())
				cnt++
			}
		}
	}
	fmt.Printf("geomean over %d skinned clips: %.2f\n", cnt, math.Exp(gm/float64(cnt)))
}
