// veraPDF's verdict on PDF files as PDF/A-2b, through veraPDF's own library (its greenfield validation model, the
// engine of its command line): a first line "veraPDF VERSION, profile NAME (N rules)", then one line per file,
// "PATH<TAB>compliant|not compliant<TAB>N checks", then one line per failed rule ("  rule CLAUSE-TEST: message").
// Exit status: 0 when every file conforms, 1 otherwise.
// Run by tests/paper/test_report_pdfa.py (docs/record.md says where the library comes from).
import java.io.FileInputStream;
import java.io.InputStream;
import java.util.Set;
import java.util.TreeSet;

import org.verapdf.ReleaseDetails;
import org.verapdf.gf.foundry.VeraGreenfieldFoundryProvider;
import org.verapdf.pdfa.Foundries;
import org.verapdf.pdfa.PDFAParser;
import org.verapdf.pdfa.PDFAValidator;
import org.verapdf.pdfa.flavours.PDFAFlavour;
import org.verapdf.pdfa.results.TestAssertion;
import org.verapdf.pdfa.results.ValidationResult;

public class PdfaCheck {
    public static void main(String[] args) throws Exception {
        VeraGreenfieldFoundryProvider.initialise();
        int failing = 0;
        try (PDFAValidator validator = Foundries.defaultInstance().createValidator(PDFAFlavour.PDFA_2_B, false)) {
            System.out.println("veraPDF " + ReleaseDetails.byId("validation-model").getVersion() + ", profile "
                               + validator.getProfile().getDetails().getName() + " ("
                               + validator.getProfile().getRules().size() + " rules)");
        }
        for (String path : args) {
            try (InputStream in = new FileInputStream(path);
                 PDFAParser parser = Foundries.defaultInstance().createParser(in, PDFAFlavour.PDFA_2_B);
                 PDFAValidator validator = Foundries.defaultInstance().createValidator(PDFAFlavour.PDFA_2_B, false)) {
                ValidationResult result = validator.validate(parser);
                Set<String> rules = new TreeSet<>();
                for (TestAssertion check : result.getTestAssertions()) {
                    if (check.getStatus() != TestAssertion.Status.PASSED) {
                        rules.add("  rule " + check.getRuleId().getClause() + "-" + check.getRuleId().getTestNumber()
                                  + ": " + check.getMessage());
                    }
                }
                System.out.println(path + "\t" + (result.isCompliant() ? "compliant" : "not compliant") + "\t"
                                   + result.getTotalAssertions() + " checks");
                rules.forEach(System.out::println);
                if (!result.isCompliant()) {
                    failing++;
                }
            }
        }
        System.exit(failing == 0 ? 0 : 1);
    }
}
