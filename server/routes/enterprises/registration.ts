import type { FastifyInstance } from 'fastify';
import { checkCardNo, checkRealName, normalizeCardNo } from '../../../core/identity.ts';
import { checkSmsCode } from '../../../core/validation.ts';
import type { ErrorKey } from '../../../core/errors.ts';
import { fail } from '../../errors.ts';
import type { LicenceInput } from '../../services/enterprises.ts';
import {
  checkAgentFiles,
  checkCanJoin,
  checkLicence,
  createByLegalPerson,
  hasPendingApplication,
  lastApplication,
  recommitApplication,
  setRealName,
  submitApplication,
} from '../../services/enterprise-joining.ts';
import { APPLICATION_STATUS } from '../../../core/enterprise.ts';
import { ownsFile } from '../../services/stored-files.ts';
import { body, envelope, ok, text, userDto, SIGNED_IN } from '../schemas.ts';
import { companyDto, idCardOcr, licenceOcr } from './responses.ts';
import { contentDisposition } from '../../content-disposition.ts';

const fileId = { type: 'string', maxLength: 90 } as const;
const licenceFields = { name: text(200), license: text(40), legal_person: text(60), license_image_id: fileId };

function todayYmd(): string {
  const d = new Date();
  return `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
}

function rule(key: ErrorKey | null, field: string): void {
  if (key) fail(key, field);
}

/** Real-name authentication with ID-card OCR, and creating a company through channel 1 (legal person) or 2 (agent with the signed form) (§4). */
export default async function enterpriseRegistrationRoutes(app: FastifyInstance) {
  const { db, config, codes } = app;

  /** An ID photo must be the caller's upload and an image (JPEG/PNG/BMP/GIF by content, checked at upload). */
  async function checkIdPhoto(userId: number, imageId: string, field: string) {
    if (!(await ownsFile(db, userId, imageId))) fail('identity_card_front_and_back_required', field);
    if (!/\.(jpe?g|png|bmp|gif)$/.test(imageId)) fail('file_type_unsupported', field);
  }

  // §7 v1 POST /users/ocr/identity-card (image_id, side): front gives card_no and name; back gives the validity period.
  app.post<{ Body: { image_id: string; side: 'front' | 'back' } }>(
    '/api/v1/users/ocr/identity-card',
    { config: SIGNED_IN, schema: { body: body({ image_id: fileId, side: { type: 'string', enum: ['front', 'back'] } }, ['image_id', 'side']), response: ok(idCardOcr) } },
    async (request) => {
      const user = await app.requireUser(request);
      const imageId = request.body.image_id.trim();
      await checkIdPhoto(user.id, imageId, 'image_id');
      if (!app.idCardOcr.isAvailable) fail('recognition_unavailable', 'image_id');
      const side = request.body.side;
      const fields = await app.idCardOcr.recognize(app.blobs.pathOf(imageId), side);
      if (!fields) fail('identity_card_recognition_failed', 'image_id');
      if (side === 'back' && fields.valid_until !== 'long' && fields.valid_until < todayYmd()) fail('identity_card_expired', 'image_id');
      return { data: { card_no: fields.card_no, name: fields.name, valid_until: fields.valid_until } };
    },
  );

  // §7 v2 POST /users/verified-token: real-name authentication (card_no + name; with realAuthNeedOCR also the ID photos).
  app.post<{ Body: { card_no: string; name: string; front_image_id?: string; back_image_id?: string } }>(
    '/api/v2/users/verified-token',
    { config: SIGNED_IN, schema: { body: body({ card_no: text(32), name: text(60), front_image_id: fileId, back_image_id: fileId }, ['card_no', 'name']), response: envelope(userDto) } },
    async (request) => {
      const user = await app.requireUser(request);
      const cardNo = normalizeCardNo(request.body.card_no);
      const realName = request.body.name.trim();
      if (config.realAuthNeedOCR) {
        const front = request.body.front_image_id?.trim() ?? '';
        const back = request.body.back_image_id?.trim() ?? '';
        if (!front) fail('identity_card_front_and_back_required', 'front_image_id');
        if (!back) fail('identity_card_front_and_back_required', 'back_image_id');
        await checkIdPhoto(user.id, front, 'front_image_id');
        await checkIdPhoto(user.id, back, 'back_image_id');
        rule(checkCardNo(cardNo), 'card_no');
        rule(checkRealName(realName), 'name');
        if (app.idCardOcr.isAvailable) {
          // The number must be the one the photo shows (it is read reliably: a misread digit fails the
          // check character); otherwise the photo is not this person's card. The name stays editable,
          // because OCR misreads rarer characters.
          const read = await app.idCardOcr.recognize(app.blobs.pathOf(front), 'front');
          if (!read) fail('identity_card_recognition_failed', 'front_image_id');
          if (read.card_no !== cardNo) fail('identity_verify_info_invalid', 'front_image_id');
          const validity = await app.idCardOcr.recognize(app.blobs.pathOf(back), 'back');
          if (!validity) fail('identity_card_recognition_failed', 'back_image_id');
          if (validity.valid_until !== 'long' && validity.valid_until < todayYmd()) fail('identity_card_expired', 'back_image_id');
        }
      }
      rule(checkCardNo(cardNo), 'card_no');
      rule(checkRealName(realName), 'name');
      const verdict = await app.identity.verify({ db, userId: user.id, currentCardNo: user.card_no, cardNo, name: realName });
      if (verdict) fail(verdict, verdict === 'real_name_info_empty' ? 'name' : 'card_no');
      return { data: await setRealName(db, user.id, cardNo, realName) };
    },
  );

  // §7 v1 POST /enterprises/ocr/license (image_id): name, licence number, legal representative.
  app.post<{ Body: { image_id: string } }>('/api/v1/enterprises/ocr/license', { config: SIGNED_IN, schema: { body: body({ image_id: fileId }, ['image_id']), response: ok(licenceOcr) } }, async (request) => {
    const user = await app.requireUser(request);
    const imageId = request.body.image_id.trim();
    if (!(await ownsFile(db, user.id, imageId))) fail('license_record_not_found', 'image_id');
    if (!app.licenceOcr.isAvailable) fail('recognition_unavailable', 'image_id');
    const fields = await app.licenceOcr.recognize(app.blobs.pathOf(imageId));
    if (!fields) fail('license_recognition_failed', 'image_id');
    return { data: { ...fields, is_legal_person: Boolean(user.real_name) && fields.legal_person === user.real_name } };
  });

  // §7 v1 POST /enterprises/legal-person: channel 1, the legal person confirms with an SMS code.
  app.post<{ Body: LicenceInput & { phonenumber?: string; validation_code: string } }>(
    '/api/v1/enterprises/legal-person',
    { config: SIGNED_IN, schema: { body: body({ ...licenceFields, phonenumber: text(32), validation_code: text(16) }, ['name', 'license', 'legal_person', 'license_image_id', 'validation_code']), response: ok(companyDto) } },
    async (request) => {
      const user = await app.requireUser(request);
      await checkCanJoin(db, config, user, 'name');
      const licence = await checkLicence(db, user, request.body);
      // §4: channel 1 is for the legal person only.
      if (licence.legal_person !== user.real_name) fail('legal_person_not_match', 'legal_person');
      if (request.body.phonenumber && request.body.phonenumber !== user.phonenumber) fail('phone_real_name_inconsistent', 'phonenumber');
      rule(checkSmsCode(request.body.validation_code), 'validation_code');
      return { data: await createByLegalPerson(db, codes, user, licence, request.body.validation_code) };
    },
  );

  // The channel-2 application form to print, fill, sign, stamp and upload.
  app.get<{ Querystring: { name?: string; license?: string } }>(
    '/api/v1/enterprises/application-form',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { name: text(200), license: text(40) } } } },
    async (request, reply) => {
      const user = await app.requireUser(request);
      // pdf-lib and fontkit are loaded when a form is first asked for, not with the server (see proofs/extract.ts).
      const { applicationFormPdf } = await import('./application-form.ts');
      const pdf = await applicationFormPdf({ enterpriseName: request.query.name ?? '', license: request.query.license ?? '', applicant: user.real_name || user.name, phone: user.phonenumber });
      return reply.header('content-type', 'application/pdf').header('content-disposition', contentDisposition('application-form.pdf')).send(Buffer.from(pdf));
    },
  );

  const agentSchema = {
    body: body({ ...licenceFields, apply_book_id: fileId, organization_code_certificate_id: { type: ['string', 'null'], maxLength: 90 } }, ['name', 'license', 'legal_person', 'license_image_id', 'apply_book_id']),
    response: ok(companyDto),
  };
  type AgentBody = LicenceInput & { apply_book_id: string; organization_code_certificate_id?: string | null };

  // §7 v1 POST /enterprises/agent: channel 2, the signed application form goes to operator review.
  app.post<{ Body: AgentBody }>('/api/v1/enterprises/agent', { config: SIGNED_IN, schema: agentSchema }, async (request) => {
    const user = await app.requireUser(request);
    await checkCanJoin(db, config, user, 'name');
    const licence = await checkLicence(db, user, request.body);
    // §4: channel 2 is disabled for the legal person (who has the fast route).
    if (licence.legal_person === user.real_name) fail('invalid_param', 'channel');
    const certificateId = request.body.organization_code_certificate_id?.trim() || null;
    await checkAgentFiles(db, user, request.body.apply_book_id.trim(), certificateId);
    if (await hasPendingApplication(db, user.id)) fail('application_pending', 'name');
    return { data: await submitApplication(db, user.id, licence, request.body.apply_book_id.trim(), certificateId) };
  });

  // §7 v2 PUT /enterprises/agent: recommit a rejected application with new files.
  app.put<{ Body: AgentBody }>('/api/v2/enterprises/agent', { config: SIGNED_IN, schema: agentSchema }, async (request) => {
    const user = await app.requireUser(request);
    const last = await lastApplication(db, user.id);
    if (!last || last.status !== APPLICATION_STATUS.rejected) fail('invalid_param', 'apply_book_id');
    await checkCanJoin(db, config, user, 'name');
    const licence = await checkLicence(db, user, request.body);
    if (licence.legal_person === user.real_name) fail('invalid_param', 'channel');
    const certificateId = request.body.organization_code_certificate_id?.trim() || null;
    await checkAgentFiles(db, user, request.body.apply_book_id.trim(), certificateId);
    return { data: await recommitApplication(db, user.id, last.id, licence, request.body.apply_book_id.trim(), certificateId) };
  });
}
