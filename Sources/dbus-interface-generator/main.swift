import DBusInterfaceCodegen
import Foundation

// dbus-interface-generator --output FILE.swift [--swift-name NAME] INTERFACE.xml...
//
// `--swift-name NAME` names the enum of the file that follows it (dbus/targets.conf's
// `file.xml=NAME`).
// Run by the DBusInterfaces build-tool plugin: reads the introspection files and writes the
// Swift declarations of their interfaces (SwiftGenerator) to FILE.swift, rewriting it only when
// its text changes. A problem in a file is printed as `file:line: error: message` and fails the
// build.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: dbus-interface-generator --output FILE.swift [--swift-name NAME] INTERFACE.xml..."
guard arguments.count >= 3, arguments[0] == "--output" else { fail(usage) }
let output = URL(fileURLWithPath: arguments[1])
var paths: [String] = []
var swiftNames: [String: String] = [:]
var rest = arguments.dropFirst(2)
while let argument = rest.popFirst() {
    if argument == "--swift-name" {
        guard let name = rest.popFirst(), let path = rest.popFirst() else { fail(usage) }
        swiftNames[path] = name
        paths.append(path)
    } else {
        paths.append(argument)
    }
}
var files: [(path: String, contents: [UInt8])] = []
for path in paths {
    let url = URL(fileURLWithPath: path)
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    guard size <= IntrospectionReader.maximumBytes else {
        fail(InterfaceFileError(file: path, line: 1, message: "the file is \(size) bytes; an interface file is at most \(IntrospectionReader.maximumBytes)").description)
    }
    do {
        files.append((path, Array(try Data(contentsOf: url))))
    } catch {
        fail("\(path):1: error: the file cannot be read: \(error.localizedDescription)")
    }
}
let text: String
do throws(InterfaceFileError) {
    text = try SwiftGenerator.generate(files: files, swiftNames: swiftNames)
} catch {
    fail(error.description)
}
if (try? String(contentsOf: output, encoding: .utf8)) != text {
    do {
        try text.write(to: output, atomically: true, encoding: .utf8)
    } catch {
        fail("\(output.path): error: cannot be written: \(error.localizedDescription)")
    }
}
