/// An image shown next to an action's title.
///
/// On Linux, servers do not draw icons on action buttons, so the icon is kept on the model but
/// not sent. A system image name is an SF Symbols name on Apple platforms; a template image name
/// names an image in the app's bundle.
open class UNNotificationActionIcon: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// Where the image comes from.
    enum Source: Codable, Hashable, Sendable {
        case template(imageName: String)
        case system(imageName: String)
    }

    let source: Source

    init(source: Source) {
        self.source = source
        super.init()
    }

    /// An icon from an image in the app's bundle.
    public convenience init(templateImageName: String) {
        self.init(source: .template(imageName: templateImageName))
    }

    /// An icon from a system symbol.
    public convenience init(systemImageName: String) {
        self.init(source: .system(imageName: systemImageName))
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? UNNotificationActionIcon)?.source == source
    }

    open override var hash: Int { source.hashValue }

    /// Icons are immutable, so a copy is the icon itself.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encodeSnapshot(source)
    }

    public required init?(coder: NSCoder) {
        guard let source = coder.decodeSnapshot(Source.self) else { return nil }
        self.source = source
        super.init()
    }
}
