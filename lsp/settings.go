package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cudalint/cudalint/rules/accesses"
)

// Settings are what a client may set, in initializationOptions or in
// workspace/didChangeConfiguration (directly or under "cudalint"). They
// mean what the command line's flags of the same names mean.
type Settings struct {
	ConfigPath  string            `json:"configPath"`  // --config
	Params      map[string]string `json:"params"`      // --param NAME=V
	Blocks      map[string]string `json:"blocks"`      // --block KERNEL=32x8
	Defines     map[string]string `json:"defines"`     // -D NAME=V
	IncludeDirs []string          `json:"includeDirs"` // -I
	Severity    string            `json:"severity"`    // --severity
	// Run is "onType" (the default: analyze the buffer as it is edited)
	// or "onSave".
	Run string `json:"run"`
}

func (s Settings) onSave() bool { return s.Run == "onSave" }

// parseSettings reads a settings object; numbers are accepted where the
// flags take text (params: {"n": 1024}).
func parseSettings(raw json.RawMessage) (Settings, error) {
	var wrapper map[string]json.RawMessage
	if err := json.Unmarshal(raw, &wrapper); err != nil {
		return Settings{}, fmt.Errorf("settings must be an object: %v", err)
	}
	if inner, ok := wrapper["cudalint"]; ok {
		raw = inner
	}
	var loose struct {
		Settings
		Params  map[string]any `json:"params"`
		Blocks  map[string]any `json:"blocks"`
		Defines map[string]any `json:"defines"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&loose); err != nil {
		return Settings{}, err
	}
	s := loose.Settings
	var err error
	conv := func(what string, m map[string]any) map[string]string {
		if m == nil {
			return nil
		}
		out := map[string]string{}
		for k, v := range m {
			switch v := v.(type) {
			case string:
				out[k] = v
			case json.Number:
				out[k] = v.String()
			default:
				err = fmt.Errorf("%s.%s: want a string or a number", what, k)
			}
		}
		return out
	}
	s.Params, s.Blocks, s.Defines = conv("params", loose.Params), conv("blocks", loose.Blocks), conv("defines", loose.Defines)
	if err != nil {
		return Settings{}, err
	}
	if s.Severity != "" {
		if _, err := accesses.ParseSeverity(s.Severity); err != nil {
			return Settings{}, err
		}
	}
	switch strings.TrimSpace(s.Run) {
	case "", "onType", "onSave":
	default:
		return Settings{}, fmt.Errorf("run: %q is not onType or onSave", s.Run)
	}
	return s, nil
}
