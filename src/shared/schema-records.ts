/** Schema ownership as the registry records it (mirrors the proto's SchemaOwnership). */
export interface SchemaOwnershipRecord {
  owner: string;
  team: string;
  contactEmail: string;
  readOnly: boolean;
}

export const EMPTY_OWNERSHIP: SchemaOwnershipRecord = Object.freeze({
  owner: '',
  team: '',
  contactEmail: '',
  readOnly: false,
});
