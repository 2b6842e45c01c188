package assets

import _ "embed"

// CharacterSpec is the built-in character's animation spec (JSON, the
// format of graph.ParseSpec): locomotion, layers, state machine and IK.
//
//go:embed character.json
var CharacterSpec []byte
