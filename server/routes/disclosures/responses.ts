import { arrayOf, bool, nullableNum, num, obj, pageSchema, str } from '../schemas.ts';

const recordProperties = {
  disclosure_id: str,
  disclosure_status: num,
  hash: str,
  name: str,
  received_phone: str,
  store_name: str,
  type: num,
  store_forever: bool,
  expires_at: nullableNum,
  created_at: num,
  size: num,
  sender_name: str,
  events: arrayOf(obj({ kind: str, at: num, receipt_dna: str })),
};

/** The sender's view of a disclosure (DisclosureRecordDto). */
export const disclosureRecord = obj(recordProperties);
/** A created disclosure: the record and the link the receiver got. */
export const createdDisclosure = obj({ ...recordProperties, link: str });
export const recordPage = pageSchema(disclosureRecord);

/** The receiver's view (DisclosurePublicDto); the sender side also gets `record`. */
export const publicDisclosure = obj({
  disclosure_id: str,
  disclosure_status: num,
  received_phone: str,
  name: str,
  store_name: str,
  enterprise_name: str,
  size: num,
  step: num,
  record: disclosureRecord,
});

export const receiverStep = obj({ disclosure_id: str, step: num });
export const fileLink = obj({ file_link: str, expires_at: num });
