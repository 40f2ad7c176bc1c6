import JSONModel

/// Short names for the project's one JSON model (JSONModel) in the request and answer code.
typealias JSON = JSONValue
typealias JSONMembers = JSONObject
