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
        let path = try Self.regularFilePath(of: url)
        let leadingBytes = try Self.leadingBytes(ofFileAt: path)
        let header = Data(leadingBytes.prefix(AttachmentFileType.headerLength))
        let found = try Self.fileType(path: path, typeHint: typeHint, header: header, leadingBytes: leadingBytes)
        type = found.type
        try Self.checkSize(ofFileAt: path, against: type)
        guard found.isContentChecked || type.accepts(header: header) else {
            throw UNError(.attachmentCorrupt, description: "The attachment file \(path) does not start like a \(type.identifier) file.")
        }
    }

    private static func regularFilePath(of url: URL) throws(UNError) -> String {
        guard url.isFileURL else {
            throw UNError(.attachmentInvalidURL, description: "The attachment URL must be a file URL, not \(url.absoluteString).")
        }
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw UNError(.attachmentInvalidURL, description: "There is no attachment file at \(path).")
        }
        guard !isDirectory.boolValue else {
            throw UNError(.attachmentInvalidURL, description: "The attachment at \(path) is a directory, not a file.")
        }
        return path
    }

    private static func leadingBytes(ofFileAt path: String) throws(UNError) -> Data {
        let unreadable = UNError(.attachmentInvalidURL, description: "The attachment file \(path) cannot be read.")
        guard let handle = FileHandle(forReadingAtPath: path) else { throw unreadable }
        defer { try? handle.close() }
        do {
            // At the end of the file, which is the start of an empty one, there is nothing to read.
            return try handle.read(upToCount: sniffLength) ?? Data()
        } catch {
            throw unreadable
        }
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

    private static func checkSize(ofFileAt path: String, against type: AttachmentFileType) throws(UNError) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let byteCount = (attributes?[.size] as? NSNumber)?.intValue ?? 0
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
