/**
 * A user as the directory (a SCIM provisioning client) sees them. `groups` are the user's group names, registered as
 * directory groups or not: ACLs match names, so a group's members are the users whose `groups` hold its name.
 */
export interface DirectoryUser {
  /** The stable SCIM id. */
  id: string;
  name: string;
  externalId?: string;
  active: boolean;
  groups: string[];
  createdAt: string;
  updatedAt: string;
}

export interface DirectoryMember {
  /** The member's SCIM id. */
  id: string;
  name: string;
}

export interface DirectoryGroup {
  id: string;
  /** The group's name, as ACL entries `group:<name>` name it. */
  displayName: string;
  externalId?: string;
  /** In name order; empty when read without members. */
  members: DirectoryMember[];
  createdAt: string;
  updatedAt: string;
}

/** Users to find: by name (case-insensitive, as SCIM's userName compares), by external id, or all when neither. */
export interface DirectoryUserMatch {
  name?: string;
  externalId?: string;
}

/** Groups to find: by display name (case-insensitive), by external id, or all when neither. */
export interface DirectoryGroupMatch {
  displayName?: string;
  externalId?: string;
  /** Read each group's members too (default true). */
  members?: boolean;
}

export interface DirectoryUserPatch {
  /** A string sets it, null removes it. */
  externalId?: string | null;
  active?: boolean;
}

export interface DirectoryGroupPatch {
  displayName?: string;
  externalId?: string | null;
  /** SCIM ids of users to add (`invalid_input` for one that is no directory user). */
  add?: string[];
  /** SCIM ids of users to remove (an id that is no member is ignored). */
  remove?: string[];
}

/**
 * The directory a provisioning client keeps (SCIM 2.0): users by stable ids, their `active` flag and external ids,
 * and groups as resources whose members are users. Every change takes effect at the next request: permissions are
 * read from the users' groups at the moment of use. A user the directory deletes keeps their row, inactive and
 * without groups or keys, so what they owned is never handed to anyone else; the directory no longer lists them.
 */
export interface DirectoryStore {
  /** Directory users in name order (the whole directory when `match` is empty: callers page it). */
  findDirectoryUsers(match: DirectoryUserMatch): Promise<DirectoryUser[]>;
  getDirectoryUser(id: string): Promise<DirectoryUser | undefined>;
  /**
   * A new user, a member (`roles: member`) in no group. `directory_conflict` when a directory user has that name; a
   * user the directory had deleted comes back under a new id.
   */
  createDirectoryUser(user: { name: string; externalId?: string; active: boolean }): Promise<DirectoryUser>;
  /** Undefined when there is no such directory user. An inactive user's keys stop; they work again on reactivation. */
  updateDirectoryUser(id: string, patch: DirectoryUserPatch): Promise<DirectoryUser | undefined>;
  /** Deactivates the user, removes their groups and API keys, and takes them out of the directory. */
  deleteDirectoryUser(id: string): Promise<DirectoryUser | undefined>;

  findDirectoryGroups(match: DirectoryGroupMatch): Promise<DirectoryGroup[]>;
  getDirectoryGroup(id: string, options?: { members?: boolean }): Promise<DirectoryGroup | undefined>;
  /** A new group whose members are exactly `members` (SCIM ids); `directory_conflict` when the name is registered. */
  createDirectoryGroup(group: { displayName: string; externalId?: string; members: string[] }): Promise<DirectoryGroup>;
  /** Renames (every member's group name with it), sets the external id, adds and removes members, in one step. */
  updateDirectoryGroup(id: string, patch: DirectoryGroupPatch): Promise<DirectoryGroup | undefined>;
  /** Deletes the group and takes its name out of every user's groups. */
  deleteDirectoryGroup(id: string): Promise<DirectoryGroup | undefined>;
}
