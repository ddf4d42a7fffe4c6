import DBus
import Foundation

/// KWin's `org.kde.KWin.ScreenShot2` (KWin 5.27), called over D-Bus with this package's own
/// connection: KWin writes the raw pixels into the write end of a pipe handed over as a file
/// descriptor, and answers with their width, height, stride and `QImage` format.
///
/// The harness starts KWin with `KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1`
/// (``PlasmaShellServer``); without it KWin answers only programs whose desktop entries ask
/// for the interface.
enum KWinScreenShot {
    /// `QImage::Format_RGB32`, `Format_ARGB32` and `Format_ARGB32_Premultiplied`: 32 bits a
    /// pixel, stored B, G, R, A on a little-endian machine.
    static let bgraFormats: Set<UInt32> = [4, 5, 6]

    /// The whole workspace as a PNG at `destination`.
    ///
    /// - Throws: `DBusError` when KWin refuses; ``HarnessError/unexpectedOutput(command:output:reason:)``
    ///   when its answer or the pixels do not fit together.
    static func captureWorkspace(bus: TestBus, to destination: URL, timeout: Duration = .seconds(30)) async throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw HarnessError.launchFailed(command: "pipe", reason: String(cString: strerror(errno)))
        }
        let reader = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true)
        let writer = DBusFileDescriptor(taking: descriptors[1])
        // KWin writes after it answers, from a thread of its own: read until it closes its end.
        let pixels = Task.detached { reader.readDataToEndOfFile() }
        let connection = try await DBusConnection.connect(to: bus.bus)
        let reply: DBusMessage
        do {
            let call = try KWinScreenShot2Spec.Call.captureWorkspace(.init(options: [:], pipe: writer))
                .message(to: "org.kde.KWin", path: try DBusObjectPath("/org/kde/KWin/ScreenShot2"))
            reply = try await connection.call(call, timeout: timeout)
            writer.close()
        } catch {
            writer.close()
            await connection.close()
            _ = await pixels.value
            throw error
        }
        await connection.close()
        let data = await pixels.value
        let results = (try? KWinScreenShot2Spec.CaptureWorkspaceReply(reply.body).results) ?? [:]
        let number = { (key: String) in results[key]?.uint32Value.map(Int.init) }
        guard let width = number("width"), let height = number("height"), let stride = number("stride"),
              let format = results["format"]?.uint32Value, bgraFormats.contains(format), stride == width * 4,
              data.count >= stride * height, width > 0, height > 0
        else {
            throw HarnessError.unexpectedOutput(
                command: "org.kde.KWin.ScreenShot2.CaptureWorkspace", output: "\(results) with \(data.count) bytes",
                reason: "not 32-bit pixels of the size announced")
        }
        let raw = destination.deletingPathExtension().appendingPathExtension("bgra")
        defer { try? FileManager.default.removeItem(at: raw) }
        try data.prefix(stride * height).write(to: raw)
        try await GalleryImaging.run("convert", ["-size", "\(width)x\(height)", "-depth", "8", "bgra:" + raw.path, "-alpha", "off", destination.path])
    }
}
