package main

import (
	"testing"

	"github.com/skinview/skinview/internal/gltest"
)

func TestMain(m *testing.M) { gltest.Main(m) }

// onGL runs f with a current GL context; see gltest.Do.
func onGL(t *testing.T, f func() error) { gltest.Do(t, f) }
