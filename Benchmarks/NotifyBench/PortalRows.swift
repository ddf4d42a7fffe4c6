import Foundation
import UserNotifications
import UserNotificationsTesting

/// The portal rows: the test kit's FakeNotificationPortal (version 2) serves
/// org.freedesktop.portal.Desktop from this process, and a center with the portal engine adds
/// N notifications one after the other. portal-seq adds text only and keeps no state;
/// portal-files adds an image and an audio attachment to each, which travel as sealed memory
/// files; portal-kept keeps state in a fresh folder, saved as the engine saves it (the first
/// change of a burst at once, the rest at the end of the burst).
enum PortalRows {
    @MainActor
    static func run(_ row: String, _ options: Options) async throws {
        let portal = try await FakeNotificationPortal.start(on: .session)
        defer { Task { await portal.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-bench-portal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let attachments = row == "portal-files" ? try makeAttachments(in: folder) : []
        let state = row == "portal-kept" ? folder.appendingPathComponent("state", isDirectory: true) : nil
        let center = UNUserNotificationCenter(
            identity: ApplicationIdentity(id: "org.desktopnotifications.BenchPortal", displayName: "bench"),
            persistent: state != nil, stateDirectory: state, engine: .portal)
        guard await center.engineKind == .portal else { throw BenchError("the portal engine was not chosen") }
        let n = options.count
        var samples: [Sample] = []
        for sample in 0..<options.samples {
            samples.append(try await measure {
                try await Task.detached {
                    for index in 0..<n {
                        let content = content("bench")
                        content.attachments = attachments
                        if !attachments.isEmpty { content.sound = .default }
                        // Ten identifiers over and over: the state file stays small, as an app's does.
                        try await center.add(UNNotificationRequest(identifier: "s\(sample)-\(index % 10)", content: content, trigger: nil))
                    }
                }.value
            })
        }
        report(row, count: n, samples: samples, extra: "files=\(portal.files.count)")
    }

    /// A 16 KiB PNG-headed image and a 64 KiB WAVE-headed sound.
    private static func makeAttachments(in folder: URL) throws -> [UNNotificationAttachment] {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
        let wave: [UInt8] = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WAVE".utf8)
        let image = folder.appendingPathComponent("image.png")
        let sound = folder.appendingPathComponent("sound.wav")
        try Data(png + [UInt8](repeating: 7, count: 16 * 1024)).write(to: image)
        try Data(wave + [UInt8](repeating: 3, count: 64 * 1024)).write(to: sound)
        return [
            try UNNotificationAttachment(identifier: "image", url: image),
            try UNNotificationAttachment(identifier: "sound", url: sound),
        ]
    }
}
