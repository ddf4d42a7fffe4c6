import Foundation

/// A fresh directory for one test's files, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("UserNotificationsTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `header` to a new file and pads it with zero bytes up to `size` without writing
    /// them (the file is sparse where the file system allows), so large files stay cheap.
    @discardableResult
    func file(named name: String, header: [UInt8], size: Int? = nil) throws -> URL {
        let fileURL = url.appendingPathComponent(name)
        try Data(header).write(to: fileURL)
        if let size {
            let handle = try FileHandle(forWritingTo: fileURL)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
        }
        return fileURL
    }

    func text(_ text: String, named name: String) throws -> URL {
        let fileURL = url.appendingPathComponent(name)
        try text.write(to: fileURL, atomically: true, encoding: .utf8)
        return fileURL
    }
}

/// The first bytes of files of each supported kind.
enum FileHeader {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46, 0, 1]
    static let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0]
    static let wave: [UInt8] = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WAVE".utf8)
    static let mp3: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0, 0, 0]
    static let m4a: [UInt8] = [0, 0, 0, 0x20] + Array("ftypM4A ".utf8)
    static let mp4: [UInt8] = [0, 0, 0, 0x20] + Array("ftypisom".utf8)
    static let avi: [UInt8] = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("AVI ".utf8)
    static let text: [UInt8] = Array("just some text".utf8)
}
