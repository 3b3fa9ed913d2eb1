module github.com/plasmate/plasmate

go 1.26.8

require (
	github.com/alecthomas/kong v1.17.0
	golang.org/x/net v0.62.0
	golang.org/x/text v0.44.0
)
