package svc_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The README's examples are the Example functions of example_test.go, word for word, so the code
// a reader copies is code the tests run.
func TestReadmeExamplesAreTested(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	source, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "example_test.go", source, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	examples := map[string]string{}
	for _, decl := range file.Decls {
		if fn, ok := decl.(*ast.FuncDecl); ok && strings.HasPrefix(fn.Name.Name, "Example") {
			examples[fn.Name.Name] = string(source[fset.Position(fn.Pos()).Offset:fset.Position(fn.End()).Offset])
		}
	}
	blocks := regexp.MustCompile("(?s)<!-- example: (\\w+) -->\\s*```go\\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) < 2 {
		t.Fatalf("the README shows %d tested examples; want the consumer test and the middleware", len(blocks))
	}
	for _, block := range blocks {
		name, code := string(block[1]), strings.TrimSpace(string(block[2]))
		example, ok := examples[name]
		if !ok {
			t.Errorf("the README shows %s, which example_test.go does not define", name)
			continue
		}
		if code != strings.TrimSpace(example) {
			t.Errorf("the README's %s differs from example_test.go", name)
		}
	}
}
