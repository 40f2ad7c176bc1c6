import GuidedJSON

/// The project's JSON value (GuidedJSON's), named once here: the host library has a config
/// `JSONValue` of its own, and both are visible in this module.
typealias JSON = GuidedJSON.JSONValue
typealias JSONMembers = GuidedJSON.JSONObject
