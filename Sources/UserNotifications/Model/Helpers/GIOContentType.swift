/// What GIO makes of a file's first bytes: `g_content_type_guess` over the data (the same
/// shared-mime-info database that file managers use), as a MIME type.
///
/// Only the content is shown to GIO, never the name: when a name matches a single pattern GIO
/// answers from the name alone without looking at the bytes, and the name has already been
/// judged by ``AttachmentFileType/forFilenameExtension(_:)``. So a type found here is also
/// the content check. Without GIO (GLib not installed) nothing is recognised here.
enum GIOContentType {
    private typealias Guess = @convention(c) (
        UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Int32>?
    ) -> UnsafeMutablePointer<CChar>?
    private typealias MIMEType = @convention(c) (UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>?

    private struct Functions: @unchecked Sendable {
        let guess: Guess
        let mimeType: MIMEType
        let free: GIOLibrary.Free
    }

    private static let functions: Functions? = {
        guard let library = GIOLibrary.shared,
              let guess = library.function("g_content_type_guess", as: Guess.self),
              let mimeType = library.function("g_content_type_get_mime_type", as: MIMEType.self),
              let free = library.function("g_free", as: GIOLibrary.Free.self) else { return nil }
        return Functions(guess: guess, mimeType: mimeType, free: free)
    }()

    /// Whether GIO could be loaded.
    static var isAvailable: Bool { functions != nil }

    /// The MIME type GIO is sure of for content starting with `data`, such as
    /// `"video/x-msvideo"`; `nil` without GIO, for empty data, or when GIO is uncertain (it
    /// then says `application/octet-stream`).
    static func mimeType(sniffing data: [UInt8]) -> String? {
        guard let functions, !data.isEmpty else { return nil }
        var uncertain: Int32 = 0
        let guessed = data.withUnsafeBufferPointer { bytes in
            functions.guess(nil, bytes.baseAddress, bytes.count, &uncertain)
        }
        guard let guessed else { return nil }
        defer { functions.free(guessed) }
        guard uncertain == 0, let mimeType = functions.mimeType(guessed) else { return nil }
        defer { functions.free(mimeType) }
        return String(cString: mimeType)
    }
}
