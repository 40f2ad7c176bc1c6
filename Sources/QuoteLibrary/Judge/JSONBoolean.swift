import Foundation

/// Tells JSON `true`/`false` apart from the numbers 1 and 0 in `JSONSerialization` output. On
/// Linux, `value is Bool` holds for the NSNumbers 0 and 1 too, so a score or limit of 1 would be
/// refused as a boolean; the dynamic type of a decoded `true` is what booleans have.
enum JSONBoolean {
    private static let booleanType: ObjectIdentifier = {
        let reference = (try? JSONSerialization.jsonObject(with: Data("[true]".utf8)) as? [Any])?.first ?? true
        return ObjectIdentifier(type(of: reference as AnyObject))
    }()

    static func isBoolean(_ value: Any?) -> Bool {
        guard let value else { return false }
        return ObjectIdentifier(type(of: value as AnyObject)) == booleanType
    }
}
