package cpp

import "testing"

// An #include "..." found neither beside its file nor in an include
// folder is looked for in the file's ancestor folders, nearest first, up
// to the root and never above it; #include <...> is not.
func TestIncludeFromAncestorFolders(t *testing.T) {
	files := map[string]string{
		"proj/a/core/x.h":  "int root_relative;",
		"proj/a/b/utils.h": "int beside;",
		"proj/a/c.h":       "int nearer;",
		"proj/c.h":         "int farther;",
		"proj/utils.h":     "int not_beside;",
		"proj/m/u.cuh":     "int folder_relative;",
		"up.h":             "int outside;",
		"proj/sys.h":       "int angled;",
	}
	tests := []struct {
		name, root, include, want string
		notes                     int
	}{
		{"the root", "proj", `"a/core/x.h"`, "int root_relative ;", 0},
		{"beside wins", "proj", `"utils.h"`, "int beside ;", 0},
		{"nearest ancestor", "proj", `"c.h"`, "int nearer ;", 0},
		{"an ancestor below the root", "proj", `"m/u.cuh"`, "int folder_relative ;", 0},
		{"never above the root", "proj", `"up.h"`, "", 1},
		{"angled stays", "proj", `<sys.h>`, "", 0},
		{"no root, no search", "", `"a/core/x.h"`, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "#include " + tt.include + "\n"
			pp := Preprocess("proj/a/b/k.cu", []byte(src), Config{ReadFile: memFiles(files), Root: tt.root})
			if got := texts(pp.Tokens); got != tt.want {
				t.Errorf("tokens %q, want %q", got, tt.want)
			}
			if len(pp.Notes) != tt.notes {
				t.Errorf("notes %v, want %d", pp.Notes, tt.notes)
			}
		})
	}
}
