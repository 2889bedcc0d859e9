package driver

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// decodeConfig fills c from the checked root mapping. yaml.v3's own
// decoder compares every key of a mapping with every earlier one, so a
// hostile 200,000-entry mapping took minutes; the checks have already
// refused repeated keys, so the tree is walked here once, each scalar
// decoded by yaml.v3 as it would have been.
func decodeConfig(root *yaml.Node, c *Config) error {
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := resolve(root.Content[i]), resolve(root.Content[i+1])
		if isNull(v) {
			continue
		}
		var err error
		switch k.Value {
		case "enable":
			c.Enable, err = decodeList(v)
		case "disable":
			c.Disable, err = decodeList(v)
		case "exclude":
			c.Exclude, err = decodeList(v)
		case "include-dirs":
			c.IncludeDirs, err = decodeList(v)
		case "host-cpp":
			var b bool
			err = v.Decode(&b)
			c.HostCpp = &b
		case "min-severity":
			err = v.Decode(&c.MinSeverity)
		case "blocks":
			c.Blocks, err = decodeMap[string](v)
		case "grids":
			c.Grids, err = decodeMap[string](v)
		case "defines":
			c.Defines, err = decodeMap[string](v)
		case "params":
			c.Params, err = decodeMap[int64](v)
		}
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "cannot unmarshal") || strings.Contains(msg, "!!") {
				msg = "a value has the wrong kind"
			}
			return &ConfigError{Line: v.Line, Col: v.Column, Msg: k.Value + ": " + msg}
		}
	}
	return nil
}

// decodeList decodes a list of scalars (a lone scalar is a list of one,
// as yaml.v3 does not allow, so the checks refuse it first).
func decodeList(n *yaml.Node) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("want a list")
	}
	out := make([]string, 0, len(n.Content))
	for _, item := range n.Content {
		var s string
		if err := resolve(item).Decode(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// decodeMap decodes a mapping of names to scalars of type T.
func decodeMap[T any](n *yaml.Node) (map[string]T, error) {
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("want a mapping")
	}
	out := make(map[string]T, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		var v T
		if err := resolve(n.Content[i+1]).Decode(&v); err != nil {
			return nil, err
		}
		out[resolve(n.Content[i]).Value] = v
	}
	return out, nil
}
