// Adding a rule is one package plus one page: rules/<name>/ holds the
// rule's Detect predicate (built on the shared preconditions of package
// accesses, such as Result.Uncoalesced), its message, its severity
// policy, its fix if any, and doc.go; docs/rules/<id>.md is its page.
// Register it in All, and give it its place in Precedence: the driver
// keeps, per access, only the diagnostics of the rule listed first.

package rules
