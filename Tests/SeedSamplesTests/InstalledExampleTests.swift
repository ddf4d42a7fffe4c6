import Foundation
import Testing
import UserNotificationsTesting

extension SeedSamplesTests {
    /// The demo as an installed program: a copy of the `SaySomething` executable in a folder of
    /// its own, started from there with no session bus, so nothing of the source checkout (no
    /// `dbus/` folder, no `#filePath`) can help it.
    @Suite("SaySomething installed outside the checkout")
    struct InstalledExample {
        @Test("with no session bus it starts its private bus and terminal presenter, and a typed reply reaches its delegate")
        func replyOnTheTerminal() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installed-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(at: folder) }
            let installed = folder.appendingPathComponent("SaySomething")
            try await BuiltProduct.copyExecutable(BuiltProduct.url(named: "SaySomething"), to: installed)

            let process = Process()
            process.executableURL = installed
            process.currentDirectoryURL = folder
            var environment = ProcessInfo.processInfo.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = nil
            environment["DEMO_TERMINAL"] = "1"
            environment["DEMO_TIMEOUT"] = "30"
            environment["XDG_STATE_HOME"] = folder.path
            process.environment = environment
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            // The presenter keeps answers typed before its first notification.
            input.fileHandleForWriting.write(Data("> hello from an installed copy\n".utf8))
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            try? input.fileHandleForWriting.close()

            #expect(process.terminationStatus == 0, "\(printed)")
            #expect(printed.contains("showing notifications in this terminal"))
            #expect(printed.contains("[1] Goodbye"))
            #expect(printed.contains("You just said hello from an installed copy"))
        }
    }
}
