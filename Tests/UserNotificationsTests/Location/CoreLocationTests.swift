import CoreLocation
import Foundation
import Testing

@Suite("CoreLocation subset: coordinates, regions, distances, archiving")
struct CoreLocationTests {
    @Test func coordinateValidity() {
        #expect(CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 39.990465, longitude: 116.333386)))
        #expect(CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: -90, longitude: 180)))
        #expect(!CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 90.0001, longitude: 0)))
        #expect(!CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 0, longitude: .nan)))
        #expect(!CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid))
        let made = CLLocationCoordinate2DMake(1, 2)
        #expect(made.latitude == 1 && made.longitude == 2)
    }

    @Test("great-circle distance: Paris to London is about 343.5 km; a point to itself is 0")
    func distance() {
        let paris = CLLocation(latitude: 48.8566, longitude: 2.3522)
        let london = CLLocation(latitude: 51.5074, longitude: -0.1278)
        #expect(abs(paris.distance(from: london) - 343_500) < 1_000)
        #expect(paris.distance(from: paris) == 0)
        #expect(abs(paris.distance(from: london) - london.distance(from: paris)) < 1e-6)
    }

    @Test func circularRegionContains() {
        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 39.990465, longitude: 116.333386), radius: 1000, identifier: "center")
        #expect(region.notifyOnEntry && region.notifyOnExit)
        #expect(region.contains(CLLocationCoordinate2D(latitude: 39.995, longitude: 116.333386)))
        #expect(!region.contains(CLLocationCoordinate2D(latitude: 40.0, longitude: 116.333386)))
    }

    @Test("regions and locations compare by value, copy, and survive keyed archiving")
    func archiving() throws {
        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 1.5, longitude: -2.5), radius: 250, identifier: "r")
        region.notifyOnExit = false
        let copy = try #require(region.copy() as? CLCircularRegion)
        #expect(copy == region && copy !== region)
        let data = try NSKeyedArchiver.archivedData(withRootObject: region, requiringSecureCoding: true)
        let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CLCircularRegion.self, from: data))
        #expect(decoded == region)
        #expect(decoded.radius == 250 && !decoded.notifyOnExit && decoded.identifier == "r")
        let location = CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: 3, longitude: 4), altitude: 5, horizontalAccuracy: 6, verticalAccuracy: 7,
            timestamp: Date(timeIntervalSince1970: 8))
        let archived = try NSKeyedArchiver.archivedData(withRootObject: location, requiringSecureCoding: true)
        #expect(try NSKeyedUnarchiver.unarchivedObject(ofClass: CLLocation.self, from: archived) == location)
    }
}
