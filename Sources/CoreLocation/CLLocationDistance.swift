/// A distance, in metres.
///
/// As Apple declares it: a `Double`. Part of this package's minimal `CoreLocation` subset.
public typealias CLLocationDistance = Double
