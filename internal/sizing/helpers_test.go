package sizing

// must returns v, and panics on an error: for calls whose inputs a test knows to be good.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
