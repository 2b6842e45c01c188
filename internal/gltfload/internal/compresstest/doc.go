// Package compresstest encodes geometry with libdraco and libmeshoptimizer,
// so that tests can build the compressed files the loader decodes. Only
// tests import it.
package compresstest
