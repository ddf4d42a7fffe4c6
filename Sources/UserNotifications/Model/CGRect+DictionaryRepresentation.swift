#if !canImport(CoreGraphics)
import Foundation

extension CGRect {
    /// The rectangle as a dictionary with the keys `X`, `Y`, `Width` and `Height`, the form
    /// ``UNNotificationAttachmentOptionsThumbnailClippingRectKey`` takes.
    ///
    /// **Linux addition**: CoreGraphics provides this on Apple platforms (as a `CFDictionary`),
    /// and Apple's documentation creates the clipping option with it; Linux has no CoreGraphics,
    /// so the same call is offered here, returning an `NSDictionary` of `NSNumber`s.
    public var dictionaryRepresentation: NSDictionary {
        [
            "X": NSNumber(value: Double(origin.x)), "Y": NSNumber(value: Double(origin.y)),
            "Width": NSNumber(value: Double(size.width)), "Height": NSNumber(value: Double(size.height)),
        ]
    }
}
#endif
