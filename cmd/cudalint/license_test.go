package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// apache2 is the SHA-256 of the Apache License 2.0's standard text
// (https://www.apache.org/licenses/LICENSE-2.0.txt, Debian's
// /usr/share/common-licenses/Apache-2.0): LICENSE holds it unchanged
// after its copyright line, so license scanners recognize it.
const apache2 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"

// LICENSE is the Apache License 2.0 with the project's copyright, and
// the files that name the license agree with it.
func TestLicense(t *testing.T) {
	text := readFile(t, filepath.Join("..", "..", "LICENSE"))
	copyright, body, _ := strings.Cut(text, "\n")
	if copyright != "Copyright 2026 The cudalint Authors" {
		t.Errorf("LICENSE's first line is %q, want the copyright", copyright)
	}
	if sum := sha256.Sum256([]byte(body)); hex.EncodeToString(sum[:]) != apache2 {
		t.Errorf("LICENSE is not the Apache License 2.0's standard text after its copyright line")
	}
	var pkg struct{ License string }
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join("..", "..", "editors", "vscode", "package.json"))), &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.License != "Apache-2.0" {
		t.Errorf("editors/vscode/package.json's license is %q, want the SPDX id Apache-2.0", pkg.License)
	}
	if !strings.Contains(readFile(t, filepath.Join("..", "..", "README.md")), "## License\n\nApache License 2.0: see [LICENSE](LICENSE).") {
		t.Errorf("README.md has no License section naming LICENSE")
	}
}
