/// The checks a file must pass to become a notification attachment, in the order of Apple's
/// error codes: a readable file, a supported type, a size within the type's limit, content that
/// fits the type.
///
/// The type comes from the type hint, else the file name's extension, else the file's first
/// bytes: our own signatures first, then GIO's content sniffing (``GIOContentType``) when GLib
/// is installed.
struct AttachmentFileInspection {
    let type: AttachmentFileType

    /// How many leading bytes are read: enough for our signatures and for GIO's magic rules,
    /// some of which look a few hundred bytes in.
    static let sniffLength = 4096

    init(url: URL, typeHint: Any?) throws(UNError) {
        let file = try AttachmentFileDescriptor(path: Self.filePath(of: url))
        let path = file.path
        let leadingBytes = try file.leadingBytes(count: Self.sniffLength)
        let header = Data(leadingBytes.prefix(AttachmentFileType.headerLength))
        let found = try Self.fileType(path: path, typeHint: typeHint, header: header, leadingBytes: leadingBytes)
        type = found.type
        try Self.checkSize(file.byteCount, ofFileAt: path, against: type)
        guard found.isContentChecked || type.accepts(header: header) else {
            throw UNError(.attachmentCorrupt, description: "The attachment file \(path) does not start like a \(type.identifier) file.")
        }
    }

    private static func filePath(of url: URL) throws(UNError) -> String {
        guard url.isFileURL else {
            throw UNError(.attachmentInvalidURL, description: "The attachment URL must be a file URL, not \(url.absoluteString).")
        }
        return url.path
    }

    /// The type, and whether finding it already checked the content (GIO's sniffing did).
    private static func fileType(
        path: String, typeHint: Any?, header: Data, leadingBytes: Data
    ) throws(UNError) -> (type: AttachmentFileType, isContentChecked: Bool) {
        if let typeHint {
            guard let hint = typeHint as? String, let type = AttachmentFileType.named(hint) else {
                throw UNError(
                    .attachmentUnrecognizedType,
                    description: "The type hint \(typeHint) is not a supported audio, image or movie type."
                )
            }
            return (type, false)
        }
        if let type = AttachmentFileType.forFilenameExtension((path as NSString).pathExtension)
            ?? AttachmentFileType.recognizing(header: header) {
            return (type, false)
        }
        if let type = GIOContentType.mimeType(sniffing: Array(leadingBytes)).flatMap(AttachmentFileType.named) {
            return (type, true)
        }
        throw UNError(
            .attachmentUnrecognizedType,
            description: "The attachment file \(path) is not a supported audio, image or movie type. "
                + "If its extension misleads, pass its type in UNNotificationAttachmentOptionsTypeHintKey."
        )
    }

    private static func checkSize(_ byteCount: Int, ofFileAt path: String, against type: AttachmentFileType) throws(UNError) {
        let limit = type.kind.maximumByteCount
        guard byteCount > 0 else {
            throw UNError(.attachmentInvalidFileSize, description: "The attachment file \(path) is empty.")
        }
        guard byteCount <= limit else {
            throw UNError(
                .attachmentInvalidFileSize,
                description: "The attachment file \(path) has \(byteCount) bytes; a \(type.identifier) attachment may have at most \(limit)."
            )
        }
    }
}
