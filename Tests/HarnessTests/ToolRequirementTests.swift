import Foundation
import Testing
import UserNotificationsTesting

@Suite("ToolRequirement: a missing tool fails loudly")
struct ToolRequirementTests {
    @Test("a missing tool names itself, its Debian package and `make deps`")
    func missingToolMessage() throws {
        let emptyDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("no-tools-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: emptyDirectory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: emptyDirectory) }

        let error = #expect(throws: MissingToolError.self) {
            try ToolRequirement.require("dunst", searchPath: emptyDirectory.path)
        }
        #expect(error?.tool == "dunst")
        #expect(error?.package == "dunst")
        let message = try #require(error).description
        #expect(message.contains("`dunst`"))
        #expect(message.contains("Debian package `dunst`"))
        #expect(message.contains("make deps"))
        #expect(message.contains(emptyDirectory.path))

        let xvfb = #expect(throws: MissingToolError.self) {
            try ToolRequirement.require("Xvfb", searchPath: emptyDirectory.path)
        }
        #expect(xvfb?.description.contains("Debian package `xvfb`") == true)
    }

    @Test("an unknown tool still says to run `make deps`")
    func unknownTool() {
        let error = #expect(throws: MissingToolError.self) {
            try ToolRequirement.require("no-such-tool-for-harness-tests")
        }
        #expect(error?.package == nil)
        #expect(error?.description.contains("`no-such-tool-for-harness-tests`") == true)
        #expect(error?.description.contains("make deps") == true)
    }

    @Test("an absolute path that is not executable is missing")
    func absolutePath() {
        #expect(throws: MissingToolError.self) {
            try ToolRequirement.require("/nonexistent/bin/notify-send")
        }
    }

    @Test("installed tools are found on PATH")
    func installedTools() throws {
        for tool in ["dbus-daemon", "dbus-send", "gdbus", "dunst", "dunstctl", "Xvfb", "notify-send", "stdbuf"] {
            let url = try ToolRequirement.require(tool)
            #expect(url.lastPathComponent == tool)
            #expect(FileManager.default.isExecutableFile(atPath: url.path))
        }
    }

    @Test("a missing Python module names its Debian package")
    func missingPythonModule() async throws {
        let error = await #expect(throws: MissingToolError.self) {
            try await ToolRequirement.requirePythonModule("no_such_module_for_harness", package: "python3-no-such-module")
        }
        #expect(error?.package == "python3-no-such-module")
        #expect(error?.description.contains("make deps") == true)
        try await ToolRequirement.requirePythonModule("dbusmock", package: "python3-dbusmock")
    }
}
