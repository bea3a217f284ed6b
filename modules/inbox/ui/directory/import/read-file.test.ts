import { describe, expect, it } from 'vitest';
import { importFileKind, readImportFile } from './read-file';

/** A two-row .xlsx (header Nome/Telefone/Email, one contact with a numeric phone cell), made by hand. */
const XLSX_BASE64 = [
  'UEsDBBQAAAAIAFaWdl2m5wqgDgEAALYCAAATAAAAW0NvbnRlbnRfVHlwZXNdLnhtbK1SzU4CMRC++xRNr2TbxYMxhl0OqEc1ER9gbGd3G/qXTk',
  'F4e8uCxhiUC6dJ+/1mMrP51lm2wUQm+IZPRc0ZehW08X3D35aP1S1nlMFrsMFjw3dIfN5ezZa7iMSK2FPDh5zjnZSkBnRAIkT0BelCcpDLM/Uy',
  'glpBj/K6rm+kCj6jz1Xee/B2do8drG1mD9vyfSiS0BJniwNxn9VwiNEaBbngcuP1r5TqmCCKcuTQYCJNCoHLkwl75O+Ao+65bCYZjewFUn4CV1',
  'hya+VHSKv3EFbif5MTLUPXGYU6qLUrEkExIWgaELOzYpzCgfGT8/kjmeQ4phcu8u1/pgcNkFC/5lSuhS6+jB/eXz3keHbtJ1BLAwQUAAAACABW',
  'lnZdBlnHgrEAAAAoAQAACwAAAF9yZWxzLy5yZWxzjc+xDoIwEAbg3adobpeCgzGGwmJMWA0+QG2PQoBe01aFt7ejGgfHy/33/bmyXuaJPdCHga',
  'yAIsuBoVWkB2sEXNvz9gAsRGm1nMiigBUD1NWmvOAkY7oJ/eACS4gNAvoY3ZHzoHqcZcjIoU2bjvwsYxq94U6qURrkuzzfc/9uQPVhskYL8I0u',
  'gLWrw39s6rpB4YnUfUYbf1R8JZIsvcEoYJn4k/x4IxqzhAKvSv7xYPUCUEsDBBQAAAAIAFaWdl0gjGtVvwAAAB4BAAAPAAAAeGwvd29ya2Jvb2',
  'sueG1sjY/LTsNADEX3fMXI+3bSLhCKknRRhNQ9fIDJOM2oGTuyzevvGSjds/JL9/je7vBZlvBOalm4h922gUA8Ssp87uHl+WnzAMEcOeEiTD18',
  'kcFhuOs+RC+vIpdQ9Ww9zO5rG6ONMxW0razE9TKJFvQ66jnaqoTJZiIvS9w3zX0smBmuhFb/w5BpyiM9yvhWiP0KUVrQq3ub82owdL8f7K8Gxl',
  'JdH4UdXaxm+dmeUo0KQdtcGz2lHcShizdhvGUbvgFQSwMEFAAAAAgAVpZ2XfrE8SLLAAAAtgEAABoAAAB4bC9fcmVscy93b3JrYm9vay54bWwu',
  'cmVsc62Qz2rDMAyH73sKo3ujpIcxRp1exqDXrXsAYytxaGIbSd3Wt58Z7E+ghx12EpLQp4/fbv++zOaVWKacLHRNC4aSz2FKo4WX4+PmDoyoS8',
  'HNOZGFCwns+5vdE81O643EqYipkCQWomq5RxQfaXHS5EKpbobMi9Pa8ojF+ZMbCbdte4v8mwH9imkOwQIfQgfmeCn0F3YehsnTQ/bnhZJeeYFv',
  'mU8SibRCHY+kFr5Hgp+layoV8LrM9j9lJDqm8Kxco5YfodX4SwZXcfcfUEsDBBQAAAAIAFaWdl3semFvtwAAABIBAAAUAAAAeGwvc2hhcmVkU3',
  'RyaW5ncy54bWxdj0FqwzAQRfc9hZh9LCeQUIqkNIR0mVV6gMGexAJp5HrGJb19FUIpePneZ4b/3f6ek/mmSWJhD+umBUPclT7yzcPn5WP1CkYU',
  'ucdUmDz8kMA+vDgRNfWUxcOgOr5ZK91AGaUpI3FNrmXKqBWnm5VxIuxlINKc7KZtdzZjZDBdmVk9bMHMHL9mOv5xcBKD03AumZzV4OyDn+5Cia',
  '61zNKf6s+0lAfGpULGd7pjHhM1Xcn/sa2jwi9QSwMEFAAAAAgAVpZ2XTPKhH7NAAAAeAEAABgAAAB4bC93b3Jrc2hlZXRzL3NoZWV0MS54bWxd',
  'kEFuwyAQRfc9BZp9M0CSqq2AKE3VE7QHQDaNrRqwGOQ0tw+xKouaFfMfMw9Qh18/sMkl6mPQIDYcmAtNbPtw1vD1+fH4DIyyDa0dYnAaro7gYB',
  '7UJaYf6pzLrAwIpKHLeXxFpKZz3tImji4U8h2Tt7mU6Yw0JmfbuckPKDl/Qm/7AEbN2bvN1qgULyyVi5S0uW+OAljWQKWeDFc4GYXNH3urmfjP',
  'TjWTC8Myf5HIRSKrw9uVRM7pfi/Ey31xztequnu3UmH1Nlw+zdwAUEsBAhQDFAAAAAgAVpZ2XabnCqAOAQAAtgIAABMAAAAAAAAAAAAAAIABAA',
  'AAAFtDb250ZW50X1R5cGVzXS54bWxQSwECFAMUAAAACABWlnZdBlnHgrEAAAAoAQAACwAAAAAAAAAAAAAAgAE/AQAAX3JlbHMvLnJlbHNQSwEC',
  'FAMUAAAACABWlnZdIIxrVb8AAAAeAQAADwAAAAAAAAAAAAAAgAEZAgAAeGwvd29ya2Jvb2sueG1sUEsBAhQDFAAAAAgAVpZ2XfrE8SLLAAAAtg',
  'EAABoAAAAAAAAAAAAAAIABBQMAAHhsL19yZWxzL3dvcmtib29rLnhtbC5yZWxzUEsBAhQDFAAAAAgAVpZ2Xex6YW+3AAAAEgEAABQAAAAAAAAA',
  'AAAAAIABCAQAAHhsL3NoYXJlZFN0cmluZ3MueG1sUEsBAhQDFAAAAAgAVpZ2XTPKhH7NAAAAeAEAABgAAAAAAAAAAAAAAIAB8QQAAHhsL3dvcm',
  'tzaGVldHMvc2hlZXQxLnhtbFBLBQYAAAAABgAGAIcBAAD0BQAAAAA=',
].join('');

describe('readImportFile', () => {
  it('reads the first sheet of an .xlsx with read-excel-file', async () => {
    const bytes = Uint8Array.from(atob(XLSX_BASE64), (char) => char.charCodeAt(0));
    const rows = await readImportFile(new File([bytes], 'contatos.xlsx'));
    expect(rows).toEqual([
      ['Nome', 'Telefone', 'Email'],
      ['Ana', 5511999990001, 'ana@example.com'],
    ]);
  });

  it('reads a CSV and refuses other types', async () => {
    expect(await readImportFile(new File(['nome;telefone\nAna;123'], 'a.CSV'))).toEqual([
      ['nome', 'telefone'],
      ['Ana', '123'],
    ]);
    expect(importFileKind('a.xls')).toBeNull();
    await expect(readImportFile(new File(['x'], 'a.txt'))).rejects.toThrow();
  });
});
