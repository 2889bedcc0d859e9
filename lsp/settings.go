package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/rules/lint"
)

// Settings are what a client may set, in initializationOptions or in
// workspace/didChangeConfiguration (directly or under "cudalint"). They
// mean what the command line's flags of the same names mean.
type Settings struct {
	ConfigPath string `json:"configPath"` // --config
	// Settings are "defines" (-D), "includeDirs" (-I), "blocks" (--block)
	// and "params" (--param), read by parseSettings.
	analyzer.Settings `json:"-"`
	Severity          string `json:"severity"` // --severity
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
		Params      map[string]any `json:"params"`
		Blocks      map[string]any `json:"blocks"`
		Defines     map[string]any `json:"defines"`
		IncludeDirs []string       `json:"includeDirs"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&loose); err != nil {
		return Settings{}, err
	}
	s := loose.Settings
	s.IncludeDirs = loose.IncludeDirs
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
	blocks, params := conv("blocks", loose.Blocks), conv("params", loose.Params)
	s.Defines = conv("defines", loose.Defines)
	if err != nil {
		return Settings{}, err
	}
	// Blocks and parameter values are read here, at the edge, as the
	// command line reads its flags: the run gets shapes and integers.
	if s.Blocks, err = parseEach("blocks", blocks, driver.ParseBlock); err != nil {
		return Settings{}, err
	}
	if s.Params, err = parseEach("params", params, parseInt); err != nil {
		return Settings{}, err
	}
	if s.Severity != "" {
		if _, err := lint.ParseSeverity(s.Severity); err != nil {
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

// parseEach reads every value of m with parse, naming the first that
// does not read.
func parseEach[T any](what string, m map[string]string, parse func(string) (T, error)) (map[string]T, error) {
	if m == nil {
		return nil, nil
	}
	out := make(map[string]T, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v, err := parse(m[k])
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %v", what, k, err)
		}
		out[k] = v
	}
	return out, nil
}

func parseInt(s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 0, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not an integer", s)
	}
	return n, nil
}
