/// A latitude or longitude value, in degrees (WGS 84).
///
/// As Apple declares it: a `Double`. Part of this package's minimal `CoreLocation` subset.
public typealias CLLocationDegrees = Double
