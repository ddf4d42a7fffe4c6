/// The accuracy of a coordinate value, in metres: the radius of uncertainty around it.
///
/// As Apple declares it: a `Double`; a negative value means the value is not valid. Part of
/// this package's minimal `CoreLocation` subset.
public typealias CLLocationAccuracy = Double
