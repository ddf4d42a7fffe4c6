import Foundation

/// An area that can be watched: the base class of ``CLCircularRegion``.
///
/// As Apple declares it: an open `NSObject` subclass, `NSCopying` and `NSSecureCoding`, with an
/// ``identifier`` and the ``notifyOnEntry`` / ``notifyOnExit`` switches (both `true` at
/// first). Apple calls it abstract: make a ``CLCircularRegion``. Part of this package's minimal
/// `CoreLocation` subset; there is no `CLLocationManager` here, so a region is watched only
/// through a `UNLocationNotificationTrigger`.
///
/// **Linux divergence:** like Apple's, the class is not `Sendable`; a notification trigger
/// keeps its own copy. Archiving with `NSKeyedArchiver` works as far as swift-corelibs-foundation
/// supports keyed coding.
open class CLRegion: NSObject, NSCopying, NSSecureCoding {
    private let storedIdentifier: String

    /// The identifier the region was made with.
    open var identifier: String { storedIdentifier }

    /// Whether entering the region counts (`true` at first).
    open var notifyOnEntry: Bool = true

    /// Whether leaving the region counts (`true` at first).
    open var notifyOnExit: Bool = true

    /// A region with an empty identifier, as Apple's `init()` makes it.
    public override init() {
        storedIdentifier = ""
        super.init()
    }

    /// For subclasses: a region named `identifier`.
    package init(regionIdentifier identifier: String) {
        storedIdentifier = identifier
        super.init()
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    /// Regions compare by class, identifier and switches (subclasses add their own fields).
    /// Whether `object` is a region with the same values.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLRegion, Swift.type(of: other) == Swift.type(of: self) else { return false }
        return other.identifier == identifier && other.notifyOnEntry == notifyOnEntry && other.notifyOnExit == notifyOnExit
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int { identifier.hashValue }

    /// A new region with the same identifier and switches.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = CLRegion(regionIdentifier: identifier)
        copy.notifyOnEntry = notifyOnEntry
        copy.notifyOnExit = notifyOnExit
        return copy
    }

    /// `true`, as for Apple's class.
    public class var supportsSecureCoding: Bool { true }

    /// Writes the values under their property names.
    open func encode(with coder: NSCoder) {
        coder.encode(identifier as NSString, forKey: "identifier")
        coder.encode(notifyOnEntry, forKey: "notifyOnEntry")
        coder.encode(notifyOnExit, forKey: "notifyOnExit")
    }

    /// Reads what ``encode(with:)`` wrote; `nil` when the identifier is missing.
    public required init?(coder: NSCoder) {
        guard let identifier = coder.decodeObject(of: NSString.self, forKey: "identifier") else { return nil }
        storedIdentifier = identifier as String
        notifyOnEntry = coder.decodeBool(forKey: "notifyOnEntry")
        notifyOnExit = coder.decodeBool(forKey: "notifyOnExit")
        super.init()
    }
}
