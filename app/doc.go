// Package app is the Agent Web Protocol: the message envelope, the hello
// handshake, sessions and the method handlers, and the pipeline from a
// fetched page to its SOM. It knows the ports, never an adapter, and no
// transport detail: any front end that delivers messages can drive it.
package app
