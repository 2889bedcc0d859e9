package parser

import (
	"reflect"
	"sync"
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
	"github.com/cudalint/cudalint/parser/cpp"
)

// Files parsed concurrently share recordings and macros safely (run
// with -race), and parse as they do alone.
func TestHeaderCacheConcurrentParse(t *testing.T) {
	fs, mains := gen.TemplateProject(16, 10)
	memo := Config{ReadFile: fs.Read, Headers: cpp.NewHeaderCache()}
	files := make([]*File, len(mains))
	var wg sync.WaitGroup
	for i, m := range mains {
		wg.Add(1)
		go func() {
			defer wg.Done()
			files[i] = Parse(m, []byte(fs[m]), memo)
		}()
	}
	wg.Wait()
	for i, m := range mains {
		want := Parse(m, []byte(fs[m]), Config{ReadFile: fs.Read})
		if !reflect.DeepEqual(files[i].Funcs, want.Funcs) || !reflect.DeepEqual(files[i].Notes, want.Notes) {
			t.Errorf("%s parses differently with the header cache", m)
		}
	}
}
