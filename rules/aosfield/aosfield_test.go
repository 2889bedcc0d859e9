package aosfield

import (
	"testing"

	"github.com/cudalint/cudalint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.Run(t, "testdata", Analyzer) }
