// Package golden compares rendered images with committed PNG goldens for screenshot tests.
// It scores pixels with pixelmatch's YIQ colour metric and tolerates a budget of bad pixels.
// Failures name the worst region and write expected, actual and diff images for inspection.
package golden
