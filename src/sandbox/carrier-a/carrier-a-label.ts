import { startPdf } from '../../common/pdf';
import { SandboxParcel } from './carrier-a-sandbox.model';

/** The parcel's label as a real A6 PDF: parcel number, service, sender and recipient. */
export async function labelPdf(parcel: SandboxParcel): Promise<Buffer> {
  const { doc, done } = await startPdf({ size: 'A6', margin: 20, info: { Title: `Label ${parcel.parcelNumber}` } });
  doc.fontSize(16).text('Carrier A (sandbox)');
  doc.fontSize(20).text(parcel.parcelNumber);
  doc.fontSize(10).text(`Service: ${parcel.service.type}${parcel.cod ? ' + COD' : ''}`);
  doc.text(`Weight: ${parcel.weight} kg   Reference: ${parcel.reference}`);
  doc.moveDown().text('From:');
  doc.text(addressLines(parcel.sender));
  doc.moveDown().fontSize(12).text('To:');
  doc.text(addressLines(parcel.recipient));
  doc.end();
  return done;
}

function addressLines(party: SandboxParcel['recipient']): string {
  return [party.name, party.street, `${party.zipCode} ${party.city}`, party.countryCode].join('\n');
}
