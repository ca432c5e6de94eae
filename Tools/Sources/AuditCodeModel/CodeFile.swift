/// What a front end read from one source file: its declared bodies, types and properties.
public struct CodeFile: Sendable {
    /// The language of a file.
    public enum Language: String, Sendable, Equatable {
        case swift, objectiveC
    }

    /// The file, as the audit was given it.
    public var path: String
    /// Its language.
    public var language: Language
    /// Every function, method, initializer, deinitializer and accessor declared in it, nested ones included.
    public var bodies: [CodeBody]
    /// Every type, extension and Objective-C `@interface`/`@implementation` in it.
    public var types: [TypeDeclaration]
    /// Every stored or computed property declared in a type or at the top level.
    public var properties: [PropertyDeclaration]

    /// Creates a file.
    public init(
        path: String, language: Language, bodies: [CodeBody] = [], types: [TypeDeclaration] = [],
        properties: [PropertyDeclaration] = []
    ) {
        self.path = path
        self.language = language
        self.bodies = bodies
        self.types = types
        self.properties = properties
    }
}

/// A type, an extension of one, or an Objective-C class interface or implementation.
public struct TypeDeclaration: Sendable, Equatable {
    /// What kind of declaration.
    public enum Kind: String, Sendable, Equatable {
        case `class`, `struct`, `enum`, actor, `protocol`, `extension`
    }

    /// What kind of declaration.
    public var kind: Kind
    /// The type's name (the extended type's, for an extension).
    public var name: String
    /// The names after the colon: a superclass first where there is one, then protocols.
    public var inherits: [String]
    /// Whether it is `@MainActor`.
    public var isMainActor: Bool
    /// Where it is.
    public var location: CodeRange

    /// Creates a type declaration.
    public init(kind: Kind, name: String, inherits: [String], isMainActor: Bool, location: CodeRange) {
        self.kind = kind
        self.name = name
        self.inherits = inherits
        self.isMainActor = isMainActor
        self.location = location
    }
}

/// A property, instance variable or global variable.
public struct PropertyDeclaration: Sendable {
    /// Its name.
    public var name: String
    /// The type it belongs to; `nil` for a global.
    public var typeName: String?
    /// Whether it is `static` or `class`.
    public var isStatic: Bool
    /// Whether its type is a function (a closure-typed property: a handler, a completion).
    public var isClosure: Bool
    /// The type of the value it holds, as written (`BackgroundTasks` for `let tasks: BackgroundTasks?`,
    /// `@property BGTasks *tasks`, or `= BackgroundTasks()`); `nil` when not written or not a named type.
    public var valueType: String?
    /// Where it is.
    public var location: CodeRange

    /// Creates a property.
    public init(
        name: String, typeName: String?, isStatic: Bool, isClosure: Bool, valueType: String? = nil,
        location: CodeRange
    ) {
        self.name = name
        self.typeName = typeName
        self.isStatic = isStatic
        self.isClosure = isClosure
        self.valueType = valueType
        self.location = location
    }
}
