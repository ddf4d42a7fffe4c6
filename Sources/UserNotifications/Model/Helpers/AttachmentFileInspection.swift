/// The checks a file must pass to become a notification attachment, in the order of Apple's
/// error codes: a readable file, a supported type, a size within the type's limit, content that
/// fits the type.
struct AttachmentFileInspection {
    let type: AttachmentFileType

    init(url: URL, typeHint: Any?) throws(UNError) {
        let path = try Self.regularFilePath(of: url)
        let header = try Self.header(ofFileAt: path)
        type = try Self.fileType(path: path, typeHint: typeHint, header: header)
        try Self.checkSize(ofFileAt: path, against: type)
        guard type.accepts(header: header) else {
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

    private static func header(ofFileAt path: String) throws(UNError) -> Data {
        let unreadable = UNError(.attachmentInvalidURL, description: "The attachment file \(path) cannot be read.")
        guard let handle = FileHandle(forReadingAtPath: path) else { throw unreadable }
        defer { try? handle.close() }
        do {
            // At the end of the file, which is the start of an empty one, there is nothing to read.
            return try handle.read(upToCount: AttachmentFileType.headerLength) ?? Data()
        } catch {
            throw unreadable
        }
    }

    private static func fileType(path: String, typeHint: Any?, header: Data) throws(UNError) -> AttachmentFileType {
        if let typeHint {
            guard let hint = typeHint as? String, let type = AttachmentFileType.named(hint) else {
                throw UNError(
                    .attachmentUnrecognizedType,
                    description: "The type hint \(typeHint) is not a supported audio, image or movie type."
                )
            }
            return type
        }
        let byExtension = AttachmentFileType.forFilenameExtension((path as NSString).pathExtension)
        guard let type = byExtension ?? AttachmentFileType.recognizing(header: header) else {
            throw UNError(
                .attachmentUnrecognizedType,
                description: "The attachment file \(path) is not a supported audio, image or movie type. "
                    + "If its extension misleads, pass its type in UNNotificationAttachmentOptionsTypeHintKey."
            )
        }
        return type
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
