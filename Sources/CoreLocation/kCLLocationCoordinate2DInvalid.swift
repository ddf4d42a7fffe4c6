/// A coordinate that ``CLLocationCoordinate2DIsValid(_:)`` rejects, as Apple's constant is.
/// Apple's value is (-180, -180); this one is too. Part of this package's minimal
/// `CoreLocation` subset.
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)
