package lex

// NoteKind says what a note is about, set where the note is made: code
// that acts on notes (the summary names includes refused for lying
// outside the root, --stats counts notes by kind) reads the kind, never
// the message. NoteRemark is a note of no particular kind.
type NoteKind uint8

const (
	NoteRemark NoteKind = iota
	// NoteIncludeOutsideRoot: an #include was not read because the file
	// lies outside the folders the run may read.
	NoteIncludeOutsideRoot

	// The scanner's.
	NoteUnterminatedComment
	NoteUnterminatedString
	NoteUnterminatedChar

	// The preprocessor's.
	NoteTokenLimit     // the file and its includes produce too many tokens
	NoteExpansionLimit // one macro expansion produced too many tokens
	NoteUnterminatedIf // an #if without its #endif
	NoteWithoutIf      // #elif, #else or #endif without #if
	NoteElseAfterElse  // a second #else
	NoteErrorDirective // an #error in code that is compiled
	NoteIfNotEvaluable // an #if expression it cannot evaluate
	NoteUnterminatedMacroArgs
	NoteDefineWithoutName
	NoteBadMacroParam // an unexpected token among a macro's parameters
	NoteUnterminatedMacroParams
	NoteIncludeRefused  // an #include refused for another reason than the root
	NoteIncludeNotFound // an #include "file" that is not found
	NoteIncludeDepth    // includes nested too deep (a cycle?)
	NoteIncludeCount    // too many includes for one file
	NoteIncludeBytes    // too many bytes included for one file

	// The parser's.
	NoteUnmatched         // an unmatched bracket
	NoteDeclarationEnd    // input ends inside a declaration
	NoteNamelessFunction  // a function definition without a name
	NoteParameter         // a parameter it cannot read
	NoteStructMember      // a struct member it cannot read
	NoteMemberInitializer // a constructor's member initializer it cannot read
	NoteNestingLimit      // blocks nested too deep
	NoteStatement         // a statement it cannot read, skipped
	NoteCondition         // an if, while or switch condition it cannot read
	NoteForHeader         // a for header it cannot split (a range-based for)
	NoteForInit           // a for initialiser it cannot read
	NoteForCondition      // a for condition it cannot read
	NoteForStep           // a for loop's step it cannot read
	NoteCaseValue         // a case value it cannot read

	// The interpreter's (Subject: the function it concerns).
	NoteLambdaNotFollowed   // a lambda passed to a function cudalint cannot find
	NoteCallThroughValue    // a call through a variable that holds no function cudalint knows
	NoteGlobalPointerPassed // a call not followed that is given a pointer to global memory
	NoteCallDepth           // calls nested past the limit
	NoteNoMemberFunction    // no member function with that many arguments
	NoteUnboundTemplate     // a function template parameter no launch binds
	NoteFunctionTooLarge    // a function too large to model fully
	NoteAccessLimit         // more memory accesses in one kernel than the model keeps
	NoteInvalidLaunch       // a launch whose block or grid CUDA would refuse: not analyzed

	// The parser's, in host code (Subject: the kernel launched).
	NoteLaunchNotUnderstood // a host statement with a launch that cannot be read: the launch is lost

	// The interpreter's (Subject: the value __CUDA_ARCH__ has).
	NoteArchBranch // code under a condition on __CUDA_ARCH__ that the architecture assumed leaves out

	// The interpreter's (Subject: the expression indexed or dereferenced).
	NoteNotAPointer // an access through a value cudalint does not know as a pointer

	// The interpreter's (Subject: the parameter pack).
	NotePackNotFollowed // a pack expansion or sizeof... whose elements cudalint does not know
)
