// Command validatorsuite measures the loader's validation report against
// glTF-Validator's own test suite: for every file whose expected report
// (FILE.report.json beside it) has errors, the loader must refuse the file
// or report one of the same issue codes; for every file expected clean,
// its report must hold no error.
//
//	go run ./tools/validatorsuite path/to/glTF-Validator/test
package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skinview/skinview/internal/gltfload"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: validatorsuite DIR (glTF-Validator's test folder)")
		os.Exit(2)
	}
	var withErrors, refused, coded, clean, falseErrors int
	err := filepath.WalkDir(os.Args[1], func(path string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".report.json") {
			return err
		}
		model := strings.TrimSuffix(path, ".report.json")
		if _, err := os.Stat(model); err != nil {
			return nil
		}
		var rep struct {
			Issues struct {
				Messages []gltfload.Issue
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, &rep); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		want := map[string]bool{}
		for _, i := range rep.Issues.Messages {
			if i.Severity == gltfload.Error {
				want[i.Code] = true
			}
		}
		m, lerr := gltfload.Load(model)
		if len(want) == 0 {
			clean++
			if lerr == nil && m.Report.Count(gltfload.Error) > 0 {
				falseErrors++
				fmt.Printf("ERROR ON CLEAN %s: %s\n", model, m.Report.Lines(gltfload.Error, 1)[0])
			}
			return nil
		}
		withErrors++
		if lerr != nil {
			refused++
			return nil
		}
		for _, i := range m.Report.Issues {
			if want[i.Code] {
				coded++
				return nil
			}
		}
		codes := make([]string, 0, len(want))
		for c := range want {
			codes = append(codes, c)
		}
		fmt.Printf("MISSED %s: expected %s\n", model, strings.Join(codes, ", "))
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%d files with errors: %d refused, %d reported with an expected code, %.1f %% caught\n",
		withErrors, refused, coded, 100*float64(refused+coded)/float64(max(withErrors, 1)))
	fmt.Printf("%d files expected clean: %d loaded with an error in their report\n", clean, falseErrors)
}
