import Foundation
import PackagePlugin

/// Generates, for a target that applies it, the Swift declarations of the D-Bus interfaces
/// `dbus/targets.conf` assigns to the target (from the files in `dbus/`), with
/// dbus-interface-generator: per interface a `package enum <Name>Spec` with its name, its
/// `<interface>` element as served, and its methods' and signals' names and signatures.
@main
struct DBusInterfaces: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "dbus")
        let configuration = folder.appending(path: "targets.conf")
        let entries = try Self.files(of: target.name, in: configuration)
        let files = entries.map { folder.appending(path: $0.file) }
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedDBusInterfaces.swift")
        let fileArguments = zip(entries, files).flatMap { entry, file in
            entry.swiftName.map { ["--swift-name", $0, file.path] } ?? [file.path]
        }
        return [
            .buildCommand(
                displayName: "Generating the D-Bus interfaces of \(target.name) from dbus/",
                executable: try context.tool(named: "dbus-interface-generator").url,
                arguments: ["--output", output.path] + fileArguments,
                inputFiles: [configuration] + files,
                outputFiles: [output])
        ]
    }

    /// The files `configuration` names for `target`: its lines are `Target: file.xml file.xml`,
    /// `#` starting a comment; `file.xml=NameSpec` names the file's generated enum (where the
    /// interface's last name element would clash with another interface the module sees).
    static func files(of target: String, in configuration: URL) throws -> [(file: String, swiftName: String?)] {
        let text = try String(contentsOf: configuration, encoding: .utf8)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard !content.allSatisfy(\.isWhitespace) else { continue }
            let parts = content.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else {
                throw PluginError("\(configuration.path):\(number + 1): error: expected `Target: file.xml ...`")
            }
            guard parts[0].trimmingCharacters(in: .whitespaces) == target else { continue }
            let entries = parts[1].split(whereSeparator: \.isWhitespace).map { entry -> (file: String, swiftName: String?) in
                let halves = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(halves[0]), halves.count == 2 ? String(halves[1]) : nil)
            }
            if let bad = entries.first(where: { $0.file.contains("/") || !$0.file.hasSuffix(".xml") }) {
                throw PluginError("\(configuration.path):\(number + 1): error: \(bad.file) is not the name of an .xml file in dbus/")
            }
            if let bad = entries.first(where: { $0.swiftName?.isEmpty == true }) {
                throw PluginError("\(configuration.path):\(number + 1): error: \(bad.file)= gives no Swift name")
            }
            return entries
        }
        throw PluginError("\(configuration.path):1: error: the target \(target) applies the DBusInterfaces plugin but has no line here")
    }
}

/// A problem with `dbus/targets.conf`, as the build prints it.
struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
