import Tandem

// `tandem-plugin-host serve|probe`: started by the host for an isolated backend (or to list a
// plugins folder), never by hand. Everything is in Tandem's Isolation/ChildServer.swift.
ChildServer.main(CommandLine.arguments)
