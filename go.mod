module github.com/plasmate/plasmate

go 1.26.8

require (
	github.com/alecthomas/kong v1.17.0
	github.com/pkoukk/tiktoken-go v0.1.8
	github.com/pkoukk/tiktoken-go-loader v0.0.2
	golang.org/x/net v0.62.0
	golang.org/x/text v0.44.0
)

require (
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/google/uuid v1.3.0 // indirect
)
