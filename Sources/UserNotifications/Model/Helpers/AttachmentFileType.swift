/// A file type that notification attachments accept: Apple's list of audio, image and movie
/// types, with the extensions, MIME types and leading bytes that identify each.
struct AttachmentFileType: Hashable, Sendable {
    /// The media kind, which sets the largest file allowed.
    enum Kind: Hashable, Sendable {
        case audio
        case image
        case movie

        /// Apple's limits: audio 5 MB, images 10 MB, movies 50 MB (MB taken as 2^20 bytes).
        var maximumByteCount: Int {
            switch self {
            case .audio: 5 << 20
            case .image: 10 << 20
            case .movie: 50 << 20
            }
        }
    }

    /// The uniform type identifier Apple reports as the attachment's `type`.
    let identifier: String
    let kind: Kind
    let filenameExtensions: Set<String>
    let mimeTypes: Set<String>
    /// Ways the file may start; empty means the content is not checked.
    let signatures: [ByteSignature]

    static let supported: [AttachmentFileType] = [
        AttachmentFileType(
            identifier: "public.aiff-audio", kind: .audio,
            filenameExtensions: ["aiff", "aif", "aifc"], mimeTypes: ["audio/aiff", "audio/x-aiff"],
            signatures: [.at(0, "FORM") + .at(8, "AIFF"), .at(0, "FORM") + .at(8, "AIFC")]
        ),
        AttachmentFileType(
            identifier: "com.microsoft.waveform-audio", kind: .audio,
            filenameExtensions: ["wav", "wave"],
            mimeTypes: ["audio/wav", "audio/wave", "audio/x-wav", "audio/vnd.wave"],
            signatures: [.at(0, "RIFF") + .at(8, "WAVE")]
        ),
        AttachmentFileType(
            identifier: "public.mp3", kind: .audio,
            filenameExtensions: ["mp3"], mimeTypes: ["audio/mpeg", "audio/mp3"],
            signatures: [.at(0, "ID3"), .mpegAudioFrameSync]
        ),
        AttachmentFileType(
            identifier: "public.mpeg-4-audio", kind: .audio,
            filenameExtensions: ["m4a"], mimeTypes: ["audio/mp4", "audio/m4a", "audio/x-m4a"],
            signatures: [.at(4, "ftyp")]
        ),
        AttachmentFileType(
            identifier: "public.jpeg", kind: .image,
            filenameExtensions: ["jpg", "jpeg", "jpe"], mimeTypes: ["image/jpeg", "image/pjpeg"],
            signatures: [.at(0, [0xFF, 0xD8, 0xFF])]
        ),
        AttachmentFileType(
            identifier: "com.compuserve.gif", kind: .image,
            filenameExtensions: ["gif"], mimeTypes: ["image/gif"],
            signatures: [.at(0, "GIF87a"), .at(0, "GIF89a")]
        ),
        AttachmentFileType(
            identifier: "public.png", kind: .image,
            filenameExtensions: ["png"], mimeTypes: ["image/png"],
            signatures: [.at(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])]
        ),
        AttachmentFileType(
            identifier: "public.mpeg", kind: .movie,
            filenameExtensions: ["mpg", "mpeg", "mpe"], mimeTypes: ["video/mpeg"],
            signatures: [.at(0, [0x00, 0x00, 0x01, 0xBA]), .at(0, [0x00, 0x00, 0x01, 0xB3])]
        ),
        AttachmentFileType(
            identifier: "public.mpeg-2-video", kind: .movie,
            filenameExtensions: ["m2v"], mimeTypes: [],
            signatures: [.at(0, [0x00, 0x00, 0x01, 0xB3]), .at(0, [0x00, 0x00, 0x01, 0xBA])]
        ),
        AttachmentFileType(
            identifier: "public.mpeg-4", kind: .movie,
            filenameExtensions: ["mp4"], mimeTypes: ["video/mp4"],
            signatures: [.at(4, "ftyp")]
        ),
        AttachmentFileType(
            identifier: "public.avi", kind: .movie,
            filenameExtensions: ["avi"], mimeTypes: ["video/avi", "video/msvideo", "video/x-msvideo"],
            signatures: [.at(0, "RIFF") + .at(8, "AVI ")]
        ),
    ]

    /// The number of leading bytes needed to check any signature.
    static let headerLength = 12

    /// The type named by a type hint, given as a UTI (`"public.png"`) or a MIME type (`"image/png"`).
    static func named(_ typeHint: String) -> AttachmentFileType? {
        let hint = typeHint.lowercased()
        return supported.first { $0.identifier == hint || $0.mimeTypes.contains(hint) }
    }

    /// The type a file name extension stands for, ignoring case.
    static func forFilenameExtension(_ filenameExtension: String) -> AttachmentFileType? {
        let lowercased = filenameExtension.lowercased()
        return supported.first { $0.filenameExtensions.contains(lowercased) }
    }

    /// The type whose signature the file's first bytes carry. MPEG-4 files say in their brand
    /// whether they hold audio (`M4A `) or a movie.
    static func recognizing(header: Data) -> AttachmentFileType? {
        let brand = Data(header.dropFirst(8).prefix(4))
        if ByteSignature.at(4, "ftyp").matches(header) {
            return named(brand == Data("M4A ".utf8) ? "public.mpeg-4-audio" : "public.mpeg-4")
        }
        return supported.first { type in type.signatures.contains { $0.matches(header) } }
    }

    /// Whether the file's first bytes fit this type; types without signatures accept anything.
    func accepts(header: Data) -> Bool {
        signatures.isEmpty || signatures.contains { $0.matches(header) }
    }
}
