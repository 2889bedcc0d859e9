module github.com/cudalint/cudalint

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/owenrumney/go-sarif/v2 v2.3.3
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/sourcegraph/jsonrpc2 v0.2.3
	golang.org/x/tools v0.52.0
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/text v0.14.0 // indirect
