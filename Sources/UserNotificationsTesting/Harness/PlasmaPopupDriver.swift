import Foundation

/// A person's gestures on Plasma 5's notification popups, over AT-SPI: runs
/// `Tests/Support/PlasmaPopup/plasma_popup.py` (the system Python with the AT-SPI
/// introspection bindings) against a ``PlasmaShellServer`` started with `accessible: true`.
///
/// A popup is found by its summary; buttons by their labels (Plasma shows a text action as
/// a button that opens the inline reply field).
public struct PlasmaPopupDriver: Sendable {
    /// The bus plasmashell and its accessibility bus serve on.
    public let bus: TestBus

    /// The script, found from this file's place in the package.
    public static var script: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Support/PlasmaPopup/plasma_popup.py")
    }

    /// A driver for the popups of the plasmashell serving on `bus`; starts nothing.
    public init(bus: TestBus) {
        self.bus = bus
    }

    /// Presses the button labelled `label` on the popup showing `summary`.
    ///
    /// - Throws: ``MissingToolError`` without python3-gi or gir1.2-atspi-2.0;
    ///   ``HarnessError/commandFailed(_:)`` when the popup or the button is not found.
    public func press(_ label: String, on summary: String) async throws {
        try await run([summary, "press", label])
    }

    /// Presses `replyLabel` on the popup showing `summary`, types `text` into the reply field
    /// that opens, and presses `sendLabel`.
    ///
    /// - Returns: the popup's visible labels while the field was open, before the text was
    ///   typed (the field's placeholder among them).
    /// - Throws: as ``press(_:on:)``.
    @discardableResult
    public func reply(_ text: String, on summary: String, replyLabel: String = "Reply", sendLabel: String = "Send") async throws -> [String] {
        let output = try await run(
            [summary, "reply", text], extra: ["PLASMA_POPUP_REPLY_LABEL": replyLabel, "PLASMA_POPUP_SEND_LABEL": sendLabel])
        return output.split(separator: "\n").map(String.init)
    }

    /// Presses the popup's close button (Plasma's "Close").
    ///
    /// - Throws: as ``press(_:on:)``.
    public func close(_ summary: String) async throws {
        try await run([summary, "close"])
    }

    /// The labels of the popup's buttons, in the order AT-SPI lists them (its header's
    /// Configure, Minimize and Close first).
    ///
    /// - Throws: as ``press(_:on:)``.
    public func buttons(on summary: String) async throws -> [String] {
        let output = try await run([summary, "buttons"])
        return output.split(separator: "\n").map(String.init)
    }

    @discardableResult
    private func run(_ arguments: [String], extra: [String: String] = [:]) async throws -> String {
        try await ToolRequirement.requirePythonModule("gi", package: "python3-gi")
        try await ToolRequirement.requirePythonModule(
            "gi; gi.require_version('Atspi', '2.0'); from gi.repository import Atspi", package: "gir1.2-atspi-2.0")
        let process = try ChildProcess(
            executable: try ToolRequirement.require("/usr/bin/python3"),
            arguments: [Self.script.path] + arguments,
            environment: bus.environment.merging(extra) { $1 })
        let result = try await process.result(timeout: .seconds(60))
        guard result.succeeded else { throw HarnessError.commandFailed(result) }
        return result.standardOutput
    }
}
